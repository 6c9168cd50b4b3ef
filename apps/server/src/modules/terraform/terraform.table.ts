import type { Generated, Selectable } from 'kysely';

export interface TerraformAliasTable {
  id: Generated<number>;
  project_id: number;
  inventory_id: number;
  alias: string;
  auth_key_id: number | null;
  /** Set for the alias a task gets while it runs; such aliases are not listed. */
  task_id: number | null;
  /** SHA-256 (hex) of the task alias's password. */
  task_secret_hash: string | null;
  created: string;
}
export type TerraformAliasRow = Selectable<TerraformAliasTable>;

export interface TerraformStateTable {
  id: Generated<number>;
  project_id: number;
  inventory_id: number;
  task_id: number | null;
  state: string;
  created: string;
}
export type TerraformStateRow = Selectable<TerraformStateTable>;

export interface TerraformLockTable {
  inventory_id: number;
  project_id: number;
  lock_id: string;
  /** The lock info JSON exactly as terraform sent it; returned to whoever finds the workspace locked. */
  info: string;
  created: string;
}
export type TerraformLockRow = Selectable<TerraformLockTable>;
