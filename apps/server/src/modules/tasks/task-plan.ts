import { PLAN_LIMITS, PlanRecap, PlanResource, type TaskPlan } from '@gantry/contract';
import { z } from 'zod';
import { readJsonColumn } from '../../db/row-fields.ts';
import { notFound } from '../../errors.ts';
import type { TaskPlanRepository } from './task-plan.repository.ts';
import type { TasksRepository } from './tasks.repository.ts';

const StoredResources = z.array(PlanResource);

/** What a terraform/OpenTofu task's plan changes (docs/task-log.md): stored before it waits for confirmation. */
export function createTaskPlans(deps: { plans: TaskPlanRepository; tasks: TasksRepository }) {
  return {
    /** Stores a summary (from this server's run or a runner's); it is already masked. */
    async save(taskId: number, plan: TaskPlan): Promise<void> {
      const resources = plan.resources.slice(0, PLAN_LIMITS.maxResources);
      await deps.plans.replace(taskId, {
        resources: JSON.stringify(resources),
        truncated: plan.truncated || resources.length < plan.resources.length,
        recap: JSON.stringify(plan.recap),
      });
    },

    async get(projectId: number, taskId: number): Promise<TaskPlan> {
      const task = await deps.tasks.find(projectId, taskId);
      if (!task) throw notFound('Task');
      const row = await deps.plans.find(taskId);
      const recap = readJsonColumn(PlanRecap, task.plan_recap);
      if (!row || !recap) throw notFound('Plan');
      return { recap, resources: readJsonColumn(StoredResources, row.resources) ?? [], truncated: row.truncated === 1 };
    },
  };
}

export type TaskPlans = ReturnType<typeof createTaskPlans>;
