import { z } from 'zod';
import { wireInteger } from './common.ts';
import { taskEndpoint } from './endpoint.ts';

/**
 * What a terraform/OpenTofu plan changes, read from `show -json` of the saved plan before it waits
 * for confirmation: counts as terraform's own "Plan:" line gives them (a replacement is one to add
 * and one to destroy) and the resources that change, so the decision to apply is taken on a list.
 */
export const PLAN_LIMITS = { maxResources: 1_000, addressLength: 1_024 } as const;

/** How a resource changes; `replace` is destroyed and created again (in either order). */
export const PLAN_ACTIONS = ['create', 'update', 'replace', 'delete'] as const;
export const PlanAction = z.enum(PLAN_ACTIONS);
export type PlanAction = z.infer<typeof PlanAction>;

const Count = wireInteger({ min: 0 });

/** The counts, kept on the task for the lists. */
export const PlanRecap = z.object({ add: Count, change: Count, destroy: Count });
export type PlanRecap = z.infer<typeof PlanRecap>;

export const PlanResource = z.object({
  address: z.string().max(PLAN_LIMITS.addressLength),
  action: PlanAction,
});
export type PlanResource = z.infer<typeof PlanResource>;

/** A plan's summary as the runner reports it and the API shows it. */
export const TaskPlan = z.object({
  recap: PlanRecap,
  resources: z.array(PlanResource).max(PLAN_LIMITS.maxResources),
  /** More resources change than are listed (the counts are complete). */
  truncated: z.boolean(),
});
export type TaskPlan = z.infer<typeof TaskPlan>;

export const taskPlanApi = {
  /** Gantry's own: the summary of a terraform/OpenTofu task's plan; 404 before it has one. */
  get: taskEndpoint('/plan', { method: 'GET', response: TaskPlan }),
};
