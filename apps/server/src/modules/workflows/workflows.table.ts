import type { ApprovalDecision, WorkflowRunStatus, WorkflowStep, WorkflowStepRunStatus } from '@gantry/contract';
import type { ColumnType, Generated, Selectable } from 'kysely';

export interface WorkflowTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  description: string;
  revision: number;
  created: string;
  updated: string;
}
export type WorkflowRow = Selectable<WorkflowTable>;

export interface WorkflowRevisionTable {
  id: Generated<number>;
  workflow_id: number;
  project_id: number;
  number: number;
  /** The WorkflowDefinition as JSON. */
  definition: string;
  user_id: number | null;
  created: string;
}
export type WorkflowRevisionRow = Selectable<WorkflowRevisionTable>;

export interface WorkflowTemplateTable {
  id: Generated<number>;
  workflow_id: number;
  project_id: number;
  template_id: number;
}

/** An inventory or variable group that a step of the workflow's revision in force names. */
export interface WorkflowResourceTable {
  id: Generated<number>;
  workflow_id: number;
  project_id: number;
  /** inventory or environment. */
  kind: 'inventory' | 'environment';
  resource_id: number;
}

export interface WorkflowRunTable {
  id: Generated<number>;
  project_id: number;
  workflow_id: number;
  revision: number;
  status: WorkflowRunStatus;
  user_id: number | null;
  /** The values of the workflow's variables as a JSON object. */
  variables: string;
  message: string;
  start: string;
  end: string | null;
  /** The run this one retries (it keeps that run's results up to the failed steps). */
  retry_of: number | null;
  /** The schedule or integration that started the run; both null when a user did. */
  schedule_id: number | null;
  integration_id: number | null;
  /** Hash of the caller and the Idempotency-Key (or webhook delivery id) the run was asked for with. */
  request_key: string | null;
}
export type WorkflowRunRow = Selectable<WorkflowRunTable>;
/** How a run ended: every run status but running. */
export type EndedWorkflowRunStatus = Exclude<WorkflowRunStatus, 'running'>;

/** Ended runs of a workflow started on one day, per status. */
export interface WorkflowRunStatDayTable {
  id: Generated<number>;
  project_id: number;
  workflow_id: number;
  /** YYYY-MM-DD (UTC) of the runs' start, as the stats group them. */
  start_day: string;
  status: EndedWorkflowRunStatus;
  run_count: number;
}

export interface WorkflowStepRunTable {
  id: Generated<number>;
  run_id: number;
  project_id: number;
  step_key: string;
  kind: WorkflowStep['kind'];
  status: WorkflowStepRunStatus;
  task_id: number | null;
  due: string | null;
  message: string;
  start: string | null;
  end: string | null;
  /** The outputs of the step's task as a JSON object, copied when the task ended; null before. */
  outputs: ColumnType<string | null, string | null | undefined, string | null>;
  /** While the alert that this approval step waits is not sent: from when it is owed (docs/workflows.md). */
  approval_alert: ColumnType<string | null, string | null | undefined, string | null>;
}
export type WorkflowStepRunRow = Selectable<WorkflowStepRunTable>;

export interface WorkflowApprovalTable {
  id: Generated<number>;
  run_id: number;
  project_id: number;
  step_key: string;
  user_id: number | null;
  username: string;
  decision: ApprovalDecision['decision'];
  reason: string;
  created: string;
}
export type WorkflowApprovalRow = Selectable<WorkflowApprovalTable>;
