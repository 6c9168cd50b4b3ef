import type { CreateTaskBody } from '@gantry/contract';
import type { z } from 'zod';
import type { TemplatesService } from '../templates/templates.service.ts';
import type { TaskRow } from './tasks.table.ts';

export interface BuildAutorunDeps {
  templates: Pick<TemplatesService, 'list'>;
  createTask(projectId: number, body: z.output<typeof CreateTaskBody>): Promise<unknown>;
}

/** A successful build starts the deploy templates that follow it automatically, each with the build's version. */
export function createBuildAutorun(deps: BuildAutorunDeps) {
  return async function runFollowers(task: Pick<TaskRow, 'id' | 'project_id' | 'template_id' | 'status' | 'version'>) {
    // Only builds carry a version: most tasks are done here without a read of their project's templates.
    if (task.status !== 'success' || task.version === null) return;
    const templates = await deps.templates.list(task.project_id, 'name', 'asc', {});
    if (templates.find((t) => t.id === task.template_id)?.type !== 'build') return;
    const followers = templates.filter(
      (t) => t.type === 'deploy' && t.autorun && t.build_template_id === task.template_id,
    );
    for (const follower of followers) {
      await deps.createTask(task.project_id, {
        template_id: follower.id,
        build_task_id: task.id,
        message: '',
        environment: '{}',
        secret: '{}',
        arguments: null,
        params: {},
      });
    }
  };
}
