import {
  Permission,
  activeTasksApi,
  logsSearchApi,
  projectHostsApi,
  rawOutputApi,
  taskApprovalApi,
  taskHostsApi,
  taskPlanApi,
  taskOutputsApi,
  tasksApi,
} from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { ADMIN, projectMember } from '../../http/route.ts';
import type { LogsSearch } from './logs-search.ts';
import type { TaskApprovals } from './task-approvals.ts';
import type { TaskHostsService } from './task-hosts.ts';
import type { TaskPlans } from './task-plan.ts';
import { readIdempotencyKey } from './task-request-key.ts';
import type { TaskOutputsService } from './task-outputs.ts';
import type { TaskRerun } from './task-rerun.ts';
import type { TasksService } from './tasks.service.ts';

export function registerTasksRoutes(
  route: Routes,
  {
    tasks,
    taskHosts,
    taskPlans,
    taskOutputs,
    rerunFailedHosts,
    logsSearch,
    taskApprovals,
  }: {
    tasks: TasksService;
    taskHosts: TaskHostsService;
    taskPlans: TaskPlans;
    taskOutputs: TaskOutputsService;
    rerunFailedHosts: TaskRerun;
    logsSearch: LogsSearch;
    taskApprovals: TaskApprovals;
  },
) {
  const run = projectMember(Permission.runProjectTasks);
  route(tasksApi.create, run, ({ actor, access, body, request }) => {
    const requestKey = readIdempotencyKey(request.headers);
    return tasks.create(access.project.id, body, {
      user: actor,
      permissions: access.permissions,
      ...(requestKey === undefined ? {} : { requestKey }),
    });
  });
  route(tasksApi.list, projectMember(), ({ access }) => tasks.list(access.project.id));
  route(tasksApi.last, projectMember(), ({ access, query }) =>
    tasks.list(access.project.id, query.limit ?? 200, query.before_id),
  );
  route(tasksApi.get, projectMember(), ({ access, params }) => tasks.get(access.project.id, params.taskId));
  route(tasksApi.output, projectMember(), ({ access, params, query }) =>
    tasks.output(access.project.id, params.taskId, query.offset, query.limit),
  );
  route(tasksApi.searchOutput, projectMember(), ({ actor, access, params, query }) =>
    tasks.searchOutput(access.project.id, params.taskId, query, actor.id),
  );
  route(taskHostsApi.list, projectMember(), ({ access, params }) => taskHosts.list(access.project.id, params.taskId));
  route(taskPlanApi.get, projectMember(), ({ access, params }) => taskPlans.get(access.project.id, params.taskId));
  route(taskOutputsApi.list, projectMember(), ({ access, params }) =>
    taskOutputs.list(access.project.id, params.taskId),
  );
  route(tasksApi.rerunFailedHosts, run, ({ actor, access, params }) =>
    rerunFailedHosts(access.project.id, params.taskId, { user: actor, permissions: access.permissions }),
  );
  route(taskApprovalApi.get, projectMember(), ({ actor, access, params }) =>
    taskApprovals.get(actor, access.project.id, params.taskId),
  );
  route(taskApprovalApi.approve, run, ({ actor, access, params, body }) =>
    taskApprovals.decide(actor, access.project.id, params.taskId, 'approve', body.reason),
  );
  route(taskApprovalApi.reject, run, ({ actor, access, params, body }) =>
    taskApprovals.decide(actor, access.project.id, params.taskId, 'reject', body.reason),
  );
  route(projectHostsApi.list, projectMember(), ({ access }) => taskHosts.listProjectHosts(access.project.id));
  route(projectHostsApi.failing, projectMember(), ({ access, query }) =>
    taskHosts.listFailingHosts(access.project.id, query.days),
  );
  route(logsSearchApi.search, projectMember(), ({ access, query }) => logsSearch.search(access.project.id, query));
  route(rawOutputApi, projectMember(), async ({ access, params, reply }) =>
    reply.type('text/plain; charset=utf-8').send(await tasks.rawOutput(access.project.id, params.taskId)),
  );
  route(tasksApi.stop, run, ({ access, params, body }) =>
    tasks.stop(access.project.id, params.taskId, body?.force ?? false),
  );
  route(tasksApi.stopWaiting, run, ({ access, body }) => tasks.stopWaiting(access.project.id, body?.template_id));
  route(tasksApi.confirm, run, ({ access, params }) => tasks.confirm(access.project.id, params.taskId));
  route(tasksApi.reject, run, ({ access, params }) => tasks.reject(access.project.id, params.taskId));
  route(tasksApi.remove, projectMember(Permission.manageProjectResources), ({ actor, access, params }) =>
    tasks.remove(actor, access.project.id, params.taskId),
  );
  route(tasksApi.templateTasks, projectMember(), ({ access, params, query }) =>
    tasks.listForTemplate(access.project.id, params.templateId, 1000, {
      status: query.status,
      beforeId: query.before_id,
    }),
  );
  route(tasksApi.templateLast, projectMember(), ({ access, params, query }) =>
    tasks.listForTemplate(access.project.id, params.templateId, query.limit ?? 200, { beforeId: query.before_id }),
  );
  route(tasksApi.templateStats, projectMember(), ({ access, params, query }) =>
    tasks.stats(access.project.id, params.templateId, query),
  );
  route(activeTasksApi.list, ADMIN, () => tasks.listActive());
  route(activeTasksApi.stop, ADMIN, ({ params }) => tasks.stopAnywhere(params.taskId));
}
