import type { EventsService } from '../events/events.service.ts';
import { toLogLine } from './task-output.ts';
import type { TasksRepository } from './tasks.repository.ts';
import type { TaskRow } from './tasks.table.ts';

/** What a task's start is told with: who asked, the build it deploys, its template's name. */
export interface StartDescription {
  username: string | null;
  incomingVersion: string | null;
  templateName: string;
}

export interface TaskStartDeps {
  tasks: Pick<TasksRepository, 'findById'>;
  findUsername(userId: number): Promise<string | undefined>;
  findTemplateName(projectId: number, templateId: number): Promise<string | undefined>;
}

/** Reads what a task's start is told with; the dispatcher passes the template name it already read with the queue. */
export function createStartDescriber(deps: TaskStartDeps) {
  return async function describeStart(task: TaskRow, knownTemplateName?: string): Promise<StartDescription> {
    const username = task.user_id ? await deps.findUsername(task.user_id) : undefined;
    const build = task.build_task_id ? await deps.tasks.findById(task.build_task_id) : undefined;
    const templateName = knownTemplateName ?? (await deps.findTemplateName(task.project_id, task.template_id));
    return {
      username: username ?? null,
      incomingVersion: build?.version ?? null,
      templateName: templateName ?? `#${task.template_id}`,
    };
  };
}

export type DescribeStart = ReturnType<typeof createStartDescriber>;

/** A task's first log line and its start event, the same wherever it runs; `runnerName` for a remote runner. */
export function startNotes(
  task: Pick<TaskRow, 'id'>,
  about: StartDescription,
  runnerName?: string,
): { line: string; event: string } {
  const where = runnerName === undefined ? '' : ` on runner ${runnerName}`;
  return {
    line: toLogLine(
      `Task ${task.id} (${about.templateName}) started${about.username ? ` by ${about.username}` : ''}${where}.`,
    ),
    event: `Task ${task.id} (${about.templateName}) started${where}`,
  };
}

/** Records a task's start event (the text from `startNotes`), the same wherever it runs. */
export function recordStartEvent(
  events: Pick<EventsService, 'record'>,
  task: Pick<TaskRow, 'id' | 'user_id' | 'project_id'>,
  event: string,
): Promise<void> {
  return events.record({
    userId: task.user_id,
    projectId: task.project_id,
    objectType: 'task',
    objectId: task.id,
    description: event,
  });
}
