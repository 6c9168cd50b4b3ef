import type { WorkflowDefinition, WorkflowEdge, WorkflowStepRunStatus } from '@gantry/contract';

/** Statuses a step leaves no more: its outgoing edges are decided. */
const FINAL: ReadonlySet<WorkflowStepRunStatus> = new Set(['success', 'failed', 'skipped', 'stopped']);

const isStepFinal = (status: WorkflowStepRunStatus): boolean => FINAL.has(status);

/** Whether an edge fired, cannot fire any more, or waits for its source step to end. */
function edgeState(edge: WorkflowEdge, from: WorkflowStepRunStatus): 'fired' | 'not' | 'open' {
  if (!isStepFinal(from)) return 'open';
  if (from === 'success') return edge.on === 'failure' ? 'not' : 'fired';
  if (from === 'failed') return edge.on === 'success' ? 'not' : 'fired';
  return 'not';
}

export interface RunPlan {
  /** Pending steps whose join is met: to be started. */
  start: string[];
  /** Pending steps whose join can never be met: to be skipped (already applied to the rest of the plan). */
  skip: string[];
  /** Every step has ended (once the skips are applied and nothing is to be started). */
  done: boolean;
  /** A failed step that no failure or always edge handles makes the run fail. */
  outcome: 'success' | 'failed';
}

/**
 * What a run does next, given the status of each of its steps. `all` starts a step when every
 * incoming edge fired and skips it as soon as one cannot fire; `any` starts it on the first fired
 * edge and skips it when none is left that could fire. Steps without incoming edges start at once.
 */
export function planRun(definition: WorkflowDefinition, current: ReadonlyMap<string, WorkflowStepRunStatus>): RunPlan {
  const status = new Map(current);
  const start: string[] = [];
  const skip: string[] = [];
  // Skips decide further edges: repeat until nothing changes (at most once per step).
  for (let changed = true; changed;) {
    changed = false;
    for (const step of definition.steps) {
      if (status.get(step.key) !== 'pending' || start.includes(step.key)) continue;
      const states = definition.edges
        .filter((e) => e.to === step.key)
        .map((e) => edgeState(e, status.get(e.from) ?? 'pending'));
      const decision = decide(step.join, states);
      if (decision === 'start') start.push(step.key);
      if (decision !== 'skip') continue;
      skip.push(step.key);
      status.set(step.key, 'skipped');
      changed = true;
    }
  }
  const done = start.length === 0 && [...status.values()].every(isStepFinal);
  const handled = new Set(definition.edges.filter((e) => e.on !== 'success').map((e) => e.from));
  const unhandled = definition.steps.some((s) => status.get(s.key) === 'failed' && !handled.has(s.key));
  return { start, skip, done, outcome: unhandled ? 'failed' : 'success' };
}

function decide(join: 'all' | 'any', states: ('fired' | 'not' | 'open')[]): 'start' | 'skip' | 'wait' {
  if (states.length === 0) return 'start';
  if (join === 'all') {
    if (states.includes('not')) return 'skip';
    return states.every((s) => s === 'fired') ? 'start' : 'wait';
  }
  if (states.includes('fired')) return 'start';
  return states.includes('open') ? 'wait' : 'skip';
}
