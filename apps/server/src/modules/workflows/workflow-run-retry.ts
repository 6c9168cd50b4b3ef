import type { WorkflowDefinition } from '@gantry/contract';
import { conflict, notFound } from '../../errors.ts';
import type { KeptDecision, NewStep } from './workflow-runs.repository.ts';
import type { WorkflowApprovalRow, WorkflowRunRow, WorkflowStepRunRow } from './workflows.table.ts';

/** How a retry of a run starts. */
interface RetryPlan {
  /** The new run's steps: each pending, or with the result it keeps. */
  steps: NewStep[];
  /** The approvals and rejections of the kept approval steps, copied to the new run. */
  decisions: KeptDecision[];
}

/** What the retried run had, and the step the user chose to run again (null: every failed step). */
interface RetriedRun {
  steps: readonly WorkflowStepRunRow[];
  decisions: readonly WorkflowApprovalRow[];
  stepKey: string | null;
}

/**
 * The steps a retry of `run` (failed or stopped) runs again: the chosen failed or stopped step (or, with
 * no choice, every failed step) and every step downstream of them. Every other step that succeeded or failed
 * keeps its result (task, times, outputs) and is not run again; the rest (stopped, skipped, never started)
 * start pending.
 */
export function planRetry(
  definition: Pick<WorkflowDefinition, 'edges'>,
  run: Pick<WorkflowRunRow, 'id'>,
  { steps, decisions, stepKey }: RetriedRun,
): RetryPlan {
  const retried = new Set<string>();
  if (stepKey !== null) {
    const row = steps.find((s) => s.step_key === stepKey);
    if (!row) throw notFound('Workflow step');
    if (row.status !== 'failed' && row.status !== 'stopped')
      throw conflict(`Step "${stepKey}" did not fail and was not stopped`);
    retried.add(stepKey);
  } else for (const s of steps) if (s.status === 'failed') retried.add(s.step_key);
  // Everything downstream of a retried step depends on its new result: it runs again too.
  for (let grew = true; grew;) {
    grew = false;
    for (const edge of definition.edges)
      if (retried.has(edge.from) && !retried.has(edge.to)) {
        retried.add(edge.to);
        grew = true;
      }
  }
  const keeps = (s: WorkflowStepRunRow) =>
    (s.status === 'success' || s.status === 'failed') && !retried.has(s.step_key);
  if (steps.every(keeps)) throw conflict('The run has no failed or stopped step to retry');
  const kept = new Set(steps.filter(keeps).map((s) => s.step_key));
  return {
    steps: steps.map((s) =>
      kept.has(s.step_key)
        ? {
            step_key: s.step_key,
            kind: s.kind,
            status: s.status,
            task_id: s.task_id,
            message: `Kept from run ${run.id}${s.message ? `: ${s.message}` : ''}`.slice(0, 1024),
            start: s.start,
            end: s.end,
            // Steps run again take their inputs from the kept steps' outputs.
            outputs: s.outputs,
          }
        : { step_key: s.step_key, kind: s.kind },
    ),
    decisions: decisions
      .filter((d) => kept.has(d.step_key))
      .map((d) => ({
        project_id: d.project_id,
        step_key: d.step_key,
        user_id: d.user_id,
        username: d.username,
        decision: d.decision,
        reason: d.reason,
        created: d.created,
      })),
  };
}
