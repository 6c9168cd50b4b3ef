import { TASK_STATUS_RULES, type TaskStatus } from '@gantry/contract';

/** What one alert says, whichever channel carries it. */

/** The statuses whose rule in the contract's table says they alert. */
export type AlertStatus = Extract<TaskStatus, 'success' | 'error' | 'waiting_confirmation'>;

export function isAlertStatus(status: TaskStatus): status is AlertStatus {
  return TASK_STATUS_RULES[status].alerts;
}

export interface Alert {
  status: AlertStatus;
  /** A test sent from project settings: says so, and stands for no real task. */
  test?: boolean;
  /**
   * An approval step of a workflow run waits for its approvers: the alert stands for the run (status
   * waiting_confirmation, task.url the run's page, task.author who started it), not for a task.
   */
  approval?: {
    workflow: { id: number; name: string };
    runId: number;
    step: { key: string; name: string };
    required: number;
    due: string;
  };
  /** The task waits for its template's approvers (status waiting_confirmation, task.url the task). */
  taskApproval?: { required: number; due: string };
  project: { id: number; name: string; alertChat: string | null };
  template: { id: number; name: string };
  task: {
    id: number;
    message: string;
    version: string | null;
    /** Display name of the user who started the task, or "—" (schedules, integrations). */
    author: string;
    start: string | null;
    end: string | null;
    /** Seconds from start to end, or to now while the task waits for confirmation. */
    durationSeconds: number | null;
    url: string;
  };
}

/** That an approval step of a workflow run waits, as the workflow engine tells it. */
export interface ApprovalWaiting {
  projectId: number;
  workflow: { id: number; name: string };
  runId: number;
  step: { key: string; name: string };
  /** Who started the run, null when unknown. */
  userId: number | null;
  required: number;
  due: string;
}

/**
 * An approval alert whose sending is recorded in the store (docs/workflows.md, "Approval alerts"): it is
 * claimed before it is sent, so one node sends it, and marked sent after, so one a crash cut off is sent
 * again by a later sweep.
 */
export interface OwedAlert {
  /** False when another node has claimed it, or the subject no longer waits: then nothing is sent. */
  claim(): Promise<boolean>;
  sent(): Promise<void>;
}

export interface AlertChannel {
  /** Short channel name for logs; never the URL, which often carries a token. */
  name: string;
  send(alert: Alert, signal: AbortSignal): Promise<void>;
}

const STATUS_LABELS: Record<AlertStatus, string> = {
  success: 'Success',
  error: 'Failed',
  waiting_confirmation: 'Waiting for confirmation',
};

const STATUS_VERBS: Record<AlertStatus, string> = {
  success: 'succeeded',
  error: 'failed',
  waiting_confirmation: 'is waiting for confirmation',
};

/** Colour per status, shared by the channels that draw a side bar (Slack, Rocket.Chat, Teams). */
export const STATUS_COLORS: Record<AlertStatus, string> = {
  success: '#2eb886',
  error: '#d40e0d',
  waiting_confirmation: '#daa038',
};

export function formatStatus(status: AlertStatus): string {
  return STATUS_LABELS[status];
}

/** "1h 2m 3s", "4m 0s", "7s"; "—" when the task never started. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  if (hours > 0) return `${hours}h ${minutes}m ${rest}s`;
  if (minutes > 0) return `${minutes}m ${rest}s`;
  return `${rest}s`;
}

/** One-line headline, e.g. `Task #12 of "Deploy" failed`. */
export function describeTitle(alert: Alert): string {
  if (alert.test) return `Test alert from Gantry for project "${alert.project.name}"`;
  if (alert.approval)
    return `Run #${alert.approval.runId} of workflow "${alert.approval.workflow.name}" waits for approval at "${alert.approval.step.name}"`;
  if (alert.taskApproval) return `Task #${alert.task.id} of "${alert.template.name}" waits for approval`;
  return `Task #${alert.task.id} of "${alert.template.name}" ${STATUS_VERBS[alert.status]}`;
}

export interface AlertFact {
  label: string;
  value: string;
}

/** The labelled facts every channel lists, in order; empty optional facts are left out. */
export function describeFacts(alert: Alert): AlertFact[] {
  if (alert.test) {
    return [
      { label: 'Project', value: alert.project.name },
      { label: 'Sent by', value: alert.task.author },
    ];
  }
  if (alert.approval) {
    return [
      { label: 'Project', value: alert.project.name },
      { label: 'Workflow', value: alert.approval.workflow.name },
      { label: 'Run', value: `#${alert.approval.runId}` },
      { label: 'Step', value: alert.approval.step.name },
      { label: 'Started by', value: alert.task.author },
      { label: 'Approvals required', value: String(alert.approval.required) },
      { label: 'Decide by', value: alert.approval.due },
    ];
  }
  const facts: AlertFact[] = [
    { label: 'Project', value: alert.project.name },
    { label: 'Template', value: alert.template.name },
    { label: 'Task', value: `#${alert.task.id}` },
    { label: 'Status', value: formatStatus(alert.status) },
    { label: 'Author', value: alert.task.author },
    { label: 'Duration', value: formatDuration(alert.task.durationSeconds) },
  ];
  if (alert.taskApproval)
    facts.splice(
      3,
      3,
      { label: 'Started by', value: alert.task.author },
      { label: 'Approvals required', value: String(alert.taskApproval.required) },
      { label: 'Decide by', value: alert.taskApproval.due },
    );
  if (alert.task.version) facts.push({ label: 'Version', value: alert.task.version });
  if (alert.task.message) facts.push({ label: 'Message', value: alert.task.message });
  return facts;
}

/** The text of the link every channel adds. */
export function describeLinkText(alert: Alert): string {
  return alert.approval ? 'Open run' : 'Open task';
}

/** Plain text rendering: the e-mail text part and the Gotify/webhook text. */
export function describePlainText(alert: Alert): string {
  return [
    describeTitle(alert),
    '',
    ...describeFacts(alert).map((f) => `${f.label}: ${f.value}`),
    '',
    alert.task.url,
  ].join('\n');
}
