import type { Task } from '@gantry/contract';
import { badRequest, notFound, validationFailed } from '../../errors.ts';
import type { CreateTaskInput, TaskOrigin } from './task-creation.ts';
import { isExactHostName } from './ansible-values.ts';
import type { TasksRepository } from './tasks.repository.ts';

/** The failed hosts a rerun names at most: ansible's whole limit stays one short argument. */
const MAX_RERUN_HOSTS = 1000;

interface TaskRerunDeps {
  tasks: TasksRepository;
  listFailedHosts(taskId: number): Promise<string[]>;
  /** The ordinary way a user starts a task: the request checks, the queue, limits and runners apply. */
  create(projectId: number, body: CreateTaskInput, origin: TaskOrigin): Promise<Task>;
}

/** "Rerun failed hosts" (docs/task-hosts.md): the same template again, limited to the hosts that failed. */
export function createTaskRerun({ tasks, listFailedHosts, create }: TaskRerunDeps) {
  return async function rerunFailedHosts(projectId: number, taskId: number, origin: TaskOrigin): Promise<Task> {
    const task = await tasks.find(projectId, taskId);
    if (!task) throw notFound('Task');
    if (task.tpl_app !== 'ansible') throw badRequest('Only an ansible task can rerun its failed hosts');
    const hosts = await listFailedHosts(taskId);
    if (hosts.length === 0) throw badRequest('The task has no failed or unreachable hosts to rerun');
    if (hosts.length > MAX_RERUN_HOSTS)
      throw badRequest(`The task has more than ${MAX_RERUN_HOSTS} failed hosts; start the template with a limit`);
    // The names come from the inventory and ansible's output; in --limit, pattern syntax would reach other hosts or files.
    const unsafe = hosts.find((host) => !isExactHostName(host));
    if (unsafe !== undefined)
      throw validationFailed(
        `Host "${unsafe.slice(0, 80)}" cannot be rerun by name: it holds host pattern characters (, : * ? [ ] or a leading ! & ~ @), spaces or control characters`,
      );
    const params = JSON.parse(task.params) as CreateTaskInput['params'];
    return create(
      projectId,
      {
        template_id: task.template_id,
        message: task.message,
        environment: task.environment,
        secret: '{}',
        arguments: task.arguments,
        inventory_id: task.inventory_id,
        git_branch: task.git_branch,
        build_task_id: task.build_task_id,
        params: { ...params, limit: hosts },
      },
      { ...origin, rerunOf: taskId, ...(task.environment_id ? { environmentId: task.environment_id } : {}) },
    );
  };
}

export type TaskRerun = ReturnType<typeof createTaskRerun>;
