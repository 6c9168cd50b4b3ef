import { OUTPUT_LIMITS, type TaskOutputs } from '@gantry/contract';
import { notFound } from '../../errors.ts';
import type { TaskOutputsRepository } from './task-outputs.repository.ts';
import type { TasksRepository } from './tasks.repository.ts';

interface TaskOutputsDeps {
  outputs: TaskOutputsRepository;
  tasks: TasksRepository;
}

/** The named values a task published for later workflow steps (docs/workflows.md, "Outputs"). */
export function createTaskOutputs(deps: TaskOutputsDeps) {
  async function listOf(taskId: number): Promise<TaskOutputs> {
    return Object.fromEntries((await deps.outputs.list(taskId)).map((row) => [row.name, row.value]));
  }

  return {
    /** Stores what a task published (from this server's run or a runner's); already masked and bounded. */
    async save(taskId: number, outputs: TaskOutputs): Promise<void> {
      const rows = Object.entries(outputs)
        .slice(0, OUTPUT_LIMITS.maxOutputs)
        .map(([name, value]) => ({ name, value: value.slice(0, OUTPUT_LIMITS.valueLength) }));
      await deps.outputs.replace(taskId, rows);
    },
    /** A finished task's outputs, for the workflow engine (the task is its own). */
    listOf,
    async list(projectId: number, taskId: number): Promise<{ outputs: TaskOutputs }> {
      if (!(await deps.tasks.find(projectId, taskId))) throw notFound('Task');
      return { outputs: await listOf(taskId) };
    },
  };
}

export type TaskOutputsService = ReturnType<typeof createTaskOutputs>;
