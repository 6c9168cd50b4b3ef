import type { Db, Dialect } from '../../db/database.ts';
import { tryUpdate } from '../../db/conditional-write.ts';
import { projectRows } from '../../db/project-rows.ts';
import type { ScheduleRow } from './schedules.table.ts';

export type ScheduleListRow = ScheduleRow & { tpl_name: string };

export function createSchedulesRepository(db: Db, dialect: Dialect) {
  // A schedule of a workflow has no template: its tpl_name is empty.
  const selectWithTemplate = () =>
    db
      .selectFrom('schedule')
      .leftJoin('template', 'template.id', 'schedule.template_id')
      .selectAll('schedule')
      .select((eb) => eb.fn.coalesce('template.name', eb.val('')).as('tpl_name'));

  return {
    ...projectRows(db, dialect, 'schedule'),
    list(projectId: number, templateId?: number, onlyCommitChecks = false): Promise<ScheduleListRow[]> {
      let query = selectWithTemplate().where('schedule.project_id', '=', projectId);
      if (templateId !== undefined) query = query.where('schedule.template_id', '=', templateId);
      if (onlyCommitChecks) query = query.where('schedule.repository_id', 'is not', null);
      return query.orderBy('schedule.name').orderBy('schedule.id').execute();
    },
    find(projectId: number, id: number): Promise<ScheduleListRow | undefined> {
      return selectWithTemplate()
        .where('schedule.project_id', '=', projectId)
        .where('schedule.id', '=', id)
        .executeTakeFirst();
    },
    /** Active schedules whose due time has come. */
    listDue(now: string): Promise<ScheduleRow[]> {
      return db
        .selectFrom('schedule')
        .selectAll()
        .where('active', '=', 1)
        .where('next_run', '<=', now)
        .orderBy('next_run')
        .execute();
    },
    async findEarliestNextRun(): Promise<string | undefined> {
      const row = await db
        .selectFrom('schedule')
        .select((eb) => eb.fn.min('next_run').as('next'))
        .where('active', '=', 1)
        .executeTakeFirst();
      return row?.next ?? undefined;
    },
    /**
     * Moves a schedule from the due time it fired for to the next one; true for exactly one caller,
     * even with several servers sharing the database.
     */
    async claim(id: number, due: string, next: string | null): Promise<boolean> {
      return tryUpdate(
        db.updateTable('schedule').set({ next_run: next }).where('id', '=', id).where('next_run', '=', due),
      );
    },
  };
}

export type SchedulesRepository = ReturnType<typeof createSchedulesRepository>;
