import type { Generated, Selectable } from 'kysely';

export interface ScheduleTable {
  id: Generated<number>;
  project_id: number;
  /** Null when the schedule starts a workflow. */
  template_id: number | null;
  workflow_id: number | null;
  name: string;
  cron_format: string;
  active: number;
  /** Set for "run on new commit" schedules: fire only when this repository's branch moved. */
  repository_id: number | null;
  last_commit_hash: string | null;
  next_run: string | null;
  /** JSON object of the parameters of the tasks the schedule starts. */
  task_params: string;
  created: string;
}
export type ScheduleRow = Selectable<ScheduleTable>;
