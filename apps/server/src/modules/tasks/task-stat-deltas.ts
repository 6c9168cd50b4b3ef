import { isTaskFinished, type TaskStatus } from '@gantry/contract';
import type { Insertable } from 'kysely';
import type { TaskStatDayTable } from './tasks.table.ts';

/** What the per-day stats need to know of a task. */
export interface CountedTask {
  project_id: number;
  template_id: number;
  user_id: number | null;
  created: string;
  status: TaskStatus;
}

/** The counter that sums every user's tasks. */
export const ALL_USERS = 0;

/**
 * The changes to the per-day counters when tasks enter (+1) or leave (-1) the counted set (finished
 * tasks), merged by counter and without the changes that cancel out.
 */
export function countStatDeltas(changes: { task: CountedTask; sign: 1 | -1 }[]): Insertable<TaskStatDayTable>[] {
  const byKey = new Map<string, Insertable<TaskStatDayTable>>();
  const add = (task: CountedTask, userId: number, sign: number) => {
    const createdDay = task.created.slice(0, 10);
    const key = `${task.template_id}|${userId}|${createdDay}|${task.status}`;
    const row = byKey.get(key);
    if (row) row.task_count += sign;
    else
      byKey.set(key, {
        project_id: task.project_id,
        template_id: task.template_id,
        created_day: createdDay,
        user_id: userId,
        status: task.status,
        task_count: sign,
      });
  };
  for (const { task, sign } of changes) {
    if (!isTaskFinished(task.status)) continue;
    add(task, ALL_USERS, sign);
    if (task.user_id !== null) add(task, Number(task.user_id), sign);
  }
  return [...byKey.values()].filter((row) => row.task_count !== 0);
}
