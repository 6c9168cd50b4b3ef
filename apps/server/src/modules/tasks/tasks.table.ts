import type { ApprovalDecision, HostStatus, TaskStatus } from '@gantry/contract';
import type { ColumnType, Generated, Selectable } from 'kysely';

export interface TaskTable {
  id: Generated<number>;
  project_id: number;
  template_id: number;
  status: TaskStatus;
  user_id: number | null;
  integration_id: number | null;
  schedule_id: number | null;
  message: string;
  commit_hash: string | null;
  commit_message: string;
  build_task_id: number | null;
  version: string | null;
  created: string;
  start: string | null;
  end: string | null;
  /** JSON object text of the task's extra variables (survey answers). */
  environment: string;
  /** Encrypted secret survey answers; cleared once the task has started. */
  secret: string | null;
  arguments: string | null;
  git_branch: string | null;
  inventory_id: number | null;
  /** JSON object text of the app parameters. */
  params: string;
  playbook: string;
  runner_id: number | null;
  /** The server process running the task in-process (not on a runner). */
  node_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Process group of the running process on this server, if any. */
  pid: number | null;
  /** Lines stored so far; the next line's sequence number. */
  output_lines: number;
  /** Lines of a runner's own log already stored, so a resent batch is not stored twice. */
  runner_log_offset: ColumnType<number, number | undefined, number>;
  /** JSON of the contract's HostRecap once an ansible task reported its hosts. */
  host_recap: ColumnType<string | null, string | null | undefined, string | null>;
  /** The task whose failed hosts this one runs again. */
  rerun_of_task_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** Lines of the log in the search index across tasks (seq below this); filled once the task has finished. */
  log_indexed: ColumnType<number, number | undefined, number>;
  /** JSON of the ApprovalGate the task was created under; null when it needed no approval. */
  approval: ColumnType<string | null, string | null | undefined, string | null>;
  /** While the task waits for approval: when its gate's on-timeout rule settles it. */
  approval_due: ColumnType<string | null, string | null | undefined, string | null>;
  /** While the alert that the task waits for approval is not sent: from when it is owed (docs/workflows.md). */
  approval_alert: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a remote runner was first sent the task's spec; null until then (runner-jobs.ts). */
  sent_to_runner: ColumnType<string | null, string | null | undefined, string | null>;
  /** The first task of the chain this one retries, and which retry of it this is (0 for no retry). */
  retry_of_task_id: ColumnType<number | null, number | null | undefined, number | null>;
  retry_attempt: ColumnType<number, number | undefined, number>;
  /** The retries the chain may take, from its template when its first task was created. */
  retry_limit: ColumnType<number, number | undefined, number>;
  /** When this failed task's next retry is to be created; null once it exists or when none is due. */
  retry_due: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON of the contract's PlanRecap once a terraform/OpenTofu task's plan was read. */
  plan_recap: ColumnType<string | null, string | null | undefined, string | null>;
  /** The variable group the task runs with instead of its template's (a workflow step's). */
  environment_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** Hash of the caller and the Idempotency-Key (or webhook delivery id) the task was asked for with. */
  request_key: ColumnType<string | null, string | null | undefined, string | null>;
}
export type TaskRow = Selectable<TaskTable>;

/** A waiting task with what the dispatcher needs to decide whether it may start. */
export interface QueuedTaskRow {
  id: number;
  project_id: number;
  template_id: number;
  template_name: string;
  allow_parallel_tasks: number;
  max_parallel_tasks: number;
}

/** Started tasks counted by project, template and runner: what a dispatch round needs of them. */
export interface StartedTaskCount {
  project_id: number;
  template_id: number;
  runner_id: number | null;
  count: number;
}

/** A started task, as the recovery after a restart and the node sweep find it. */
export interface StartedTaskRow {
  id: number;
  project_id: number;
  template_id: number;
  status: TaskStatus;
  runner_id: number | null;
  node_id: string | null;
}

/** A line of a task's log, keyed by (task_id, seq). */
export interface TaskOutputTable {
  task_id: number;
  seq: number;
  time: string;
  output: string;
}
export type TaskOutputRow = Selectable<TaskOutputTable>;

/** Finished tasks of a template created on one day, per status; user_id 0 counts every user's. */
export interface TaskStatDayTable {
  id: Generated<number>;
  project_id: number;
  template_id: number;
  /** YYYY-MM-DD (UTC) of the tasks' creation, as the stats group them. */
  created_day: string;
  user_id: number;
  status: TaskStatus;
  task_count: number;
}

/** A terraform/OpenTofu task's plan: the resources it changes, as JSON of the contract's PlanResource[]. */
export interface TaskPlanTable {
  task_id: number;
  resources: string;
  /** 1 when more resources change than are kept. */
  truncated: number;
}

/** One host of an ansible task: its task results counted per status. */
export interface TaskHostTable {
  id: Generated<number>;
  task_id: number;
  host: string;
  ok: number;
  changed: number;
  failed: number;
  unreachable: number;
  skipped: number;
  rescued: number;
  ignored: number;
}

/** What one ansible task did on one host. */
export interface TaskHostResultTable {
  id: Generated<number>;
  task_id: number;
  host: string;
  play: string;
  task: string;
  status: HostStatus;
  duration_ms: number;
  message: string;
}

/** An approver's decision on a task of a template that needs approval. */
export interface TaskApprovalTable {
  id: Generated<number>;
  task_id: number;
  project_id: number;
  user_id: number | null;
  username: string;
  decision: ApprovalDecision['decision'];
  reason: string;
  created: string;
}
export type TaskApprovalRow = Selectable<TaskApprovalTable>;
/** One named value a task published (docs/workflows.md, "Outputs"), secrets masked. */
export interface TaskOutputValueTable {
  id: Generated<number>;
  task_id: number;
  name: string;
  value: string;
}
