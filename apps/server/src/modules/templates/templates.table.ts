import type { TemplateType, TemplateVault } from '@gantry/contract';
import type { ColumnType, Generated, Selectable } from 'kysely';

export interface TemplateTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  description: string;
  app: string;
  type: TemplateType;
  playbook: string;
  inventory_id: number | null;
  repository_id: number | null;
  environment_id: number | null;
  view_id: number | null;
  arguments: string | null;
  allow_override_args_in_task: number;
  allow_override_branch_in_task: number;
  allow_parallel_tasks: number;
  suppress_success_alerts: number;
  start_version: string | null;
  build_template_id: number | null;
  autorun: number;
  git_branch: string | null;
  /** JSON array of survey variables. */
  survey_vars: string;
  /** JSON object of per-app options. */
  task_params: string;
  /** JSON of the contract's ApprovalGate; null when tasks run without approval. */
  approval: ColumnType<string | null, string | null | undefined, string | null>;
  /** Retries of a failed task (0 is off) and the seconds before each. */
  retries: ColumnType<number, number | undefined, number>;
  retry_delay_seconds: ColumnType<number, number | undefined, number>;
  created: string;
}
export type TemplateRow = Selectable<TemplateTable>;

export interface TemplateVaultTable {
  id: Generated<number>;
  project_id: number;
  template_id: number;
  name: string;
  type: TemplateVault['type'];
  vault_key_id: number | null;
  script: string;
}
export type TemplateVaultRow = Selectable<TemplateVaultTable>;
