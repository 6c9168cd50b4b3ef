import type { TaskOutputs as TaskOutputValues, WorkflowRun, WorkflowStepApproval } from '@gantry/contract';
import { TaskOutputs } from '@gantry/contract';
import type { WorkflowRunRow, WorkflowStepRunRow } from './workflows.table.ts';

/** A run's row as the API answers it. */
export const toRun = (row: WorkflowRunRow): WorkflowRun => ({
  id: row.id,
  project_id: row.project_id,
  workflow_id: row.workflow_id,
  revision: row.revision,
  status: row.status,
  user_id: row.user_id,
  variables: JSON.parse(row.variables) as Record<string, string>,
  message: row.message,
  start: row.start,
  end: row.end,
  retry_of: row.retry_of,
  schedule_id: row.schedule_id,
  integration_id: row.integration_id,
});

/** A step's stored outputs; empty before its task ended (or for a value this version cannot read). */
export function parseOutputs(text: string | null): TaskOutputValues {
  if (!text) return {};
  try {
    const parsed = TaskOutputs.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** A step's row as the API answers it, with its approval's state for the viewer. */
export const toStepRun = (s: WorkflowStepRunRow, approval: WorkflowStepApproval | null) => ({
  key: s.step_key,
  kind: s.kind,
  status: s.status,
  task_id: s.task_id,
  due: s.due,
  message: s.message,
  start: s.start,
  end: s.end,
  approval,
  outputs: parseOutputs(s.outputs),
});

type RunFields = Pick<WorkflowRunRow, 'project_id' | 'workflow_id' | 'revision' | 'user_id' | 'variables'> &
  Partial<Pick<WorkflowRunRow, 'retry_of' | 'schedule_id' | 'integration_id' | 'request_key'>>;

/** A run as it starts: running, no end or message yet, and no origin but the one given. */
export function startingRun(start: string, fields: RunFields): Omit<WorkflowRunRow, 'id'> {
  return {
    status: 'running',
    message: '',
    start,
    end: null,
    retry_of: null,
    schedule_id: null,
    integration_id: null,
    request_key: null,
    ...fields,
  };
}
