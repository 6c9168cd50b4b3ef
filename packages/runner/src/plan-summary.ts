import { PLAN_LIMITS, type PlanAction, type PlanResource, type TaskPlan } from '@gantry/contract';

/** terraform's and OpenTofu's `change.actions` of a resource, as the action Gantry shows. */
function actionOf(actions: unknown): PlanAction | undefined {
  if (!Array.isArray(actions)) return undefined;
  const list = actions.filter((a): a is string => typeof a === 'string');
  if (list.includes('create') && list.includes('delete')) return 'replace';
  if (list.length !== 1) return undefined;
  const [only] = list;
  // `read` (data sources), `no-op` and `forget` change nothing terraform counts as added, changed or destroyed.
  return only === 'create' || only === 'update' || only === 'delete' ? only : undefined;
}

/**
 * The summary of a saved plan from the JSON `show -json` prints: the counts of terraform's "Plan:" line
 * (a replacement is one to add and one to destroy) and the first PLAN_LIMITS.maxResources resources
 * that change, in the plan's order. Undefined when the text is not a plan.
 */
export function summarizePlan(json: string): TaskPlan | undefined {
  let plan: unknown;
  try {
    plan = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof plan !== 'object' || plan === null || Array.isArray(plan)) return undefined;
  const changes = (plan as { resource_changes?: unknown }).resource_changes ?? [];
  if (!Array.isArray(changes)) return undefined;
  const recap = { add: 0, change: 0, destroy: 0 };
  const resources: PlanResource[] = [];
  let truncated = false;
  for (const entry of changes as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { address, change } = entry as { address?: unknown; change?: { actions?: unknown } };
    const action = actionOf(change?.actions);
    if (!action || typeof address !== 'string') continue;
    if (action === 'create' || action === 'replace') recap.add++;
    if (action === 'update') recap.change++;
    if (action === 'delete' || action === 'replace') recap.destroy++;
    if (resources.length < PLAN_LIMITS.maxResources)
      resources.push({ address: address.slice(0, PLAN_LIMITS.addressLength), action });
    else truncated = true;
  }
  return { recap, resources, truncated };
}
