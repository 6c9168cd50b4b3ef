import type { ApiTokenTable, LoginAttemptTable, SessionTable } from '../modules/auth/auth.table.ts';
import type { UserTotpTable } from '../modules/auth/totp.table.ts';
import type { EventTable } from '../modules/events/events.table.ts';
import type { ProjectTable, ProjectUserTable } from '../modules/projects/projects.table.ts';
import type { UserTable } from '../modules/users/users.table.ts';
import type { AppTable } from '../modules/apps/apps.table.ts';
import type { EnvironmentSecretTable, EnvironmentTable } from '../modules/environments/environments.table.ts';
import type { InventoryTable } from '../modules/inventories/inventories.table.ts';
import type { AccessKeyTable } from '../modules/keys/keys.table.ts';
import type { RepositoryTable } from '../modules/repositories/repositories.table.ts';
import type { TemplateTable, TemplateVaultTable } from '../modules/templates/templates.table.ts';
import type { ViewTable } from '../modules/views/views.table.ts';
import type {
  TaskApprovalTable,
  TaskHostResultTable,
  TaskOutputValueTable,
  TaskHostTable,
  TaskOutputTable,
  TaskPlanTable,
  TaskStatDayTable,
  TaskTable,
} from '../modules/tasks/tasks.table.ts';
import type { ScheduleTable } from '../modules/schedules/schedules.table.ts';
import type {
  IntegrationAliasTable,
  IntegrationExtractValueTable,
  IntegrationMatcherTable,
  IntegrationTable,
} from '../modules/integrations/integrations.table.ts';
import type { RunnerTable } from '../modules/runners/runners.table.ts';
import type {
  TerraformAliasTable,
  TerraformLockTable,
  TerraformStateTable,
} from '../modules/terraform/terraform.table.ts';
import type { ClusterTable, ServerNodeTable } from '../cluster/nodes.table.ts';
import type {
  WorkflowRevisionTable,
  WorkflowRunTable,
  WorkflowRunStatDayTable,
  WorkflowResourceTable,
  WorkflowApprovalTable,
  WorkflowStepRunTable,
  WorkflowTable,
  WorkflowTemplateTable,
} from '../modules/workflows/workflows.table.ts';
import type { Kysely } from 'kysely';

/** Every table of the store, keyed by table name. */
export interface Database {
  users: UserTable;
  session: SessionTable;
  api_token: ApiTokenTable;
  login_attempt: LoginAttemptTable;
  user_totp: UserTotpTable;
  project: ProjectTable;
  project_user: ProjectUserTable;
  event: EventTable;
  access_key: AccessKeyTable;
  repository: RepositoryTable;
  inventory: InventoryTable;
  environment: EnvironmentTable;
  environment_secret: EnvironmentSecretTable;
  view: ViewTable;
  template: TemplateTable;
  template_vault: TemplateVaultTable;
  app: AppTable;
  task: TaskTable;
  task_output: TaskOutputTable;
  task_stat_day: TaskStatDayTable;
  task_host: TaskHostTable;
  task_host_result: TaskHostResultTable;
  task_plan: TaskPlanTable;
  task_output_value: TaskOutputValueTable;
  schedule: ScheduleTable;
  integration: IntegrationTable;
  integration_alias: IntegrationAliasTable;
  integration_extract_value: IntegrationExtractValueTable;
  integration_matcher: IntegrationMatcherTable;
  terraform_alias: TerraformAliasTable;
  terraform_state: TerraformStateTable;
  terraform_lock: TerraformLockTable;
  runner: RunnerTable;
  server_node: ServerNodeTable;
  cluster: ClusterTable;
  workflow: WorkflowTable;
  workflow_revision: WorkflowRevisionTable;
  workflow_template: WorkflowTemplateTable;
  workflow_resource: WorkflowResourceTable;
  workflow_run: WorkflowRunTable;
  workflow_run_stat_day: WorkflowRunStatDayTable;
  workflow_step_run: WorkflowStepRunTable;
  workflow_approval: WorkflowApprovalTable;
  task_approval: TaskApprovalTable;
}

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres' | 'mysql';
