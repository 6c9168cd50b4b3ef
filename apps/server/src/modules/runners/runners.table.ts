import type { Generated, Selectable } from 'kysely';

export interface RunnerTable {
  id: Generated<number>;
  project_id: number | null;
  name: string;
  webhook: string;
  max_parallel_tasks: number;
  active: number;
  token_hash: string;
  /** Last heartbeat. */
  touched: string | null;
  started_at: string | null;
  created: string;
}
export type RunnerRow = Selectable<RunnerTable>;
