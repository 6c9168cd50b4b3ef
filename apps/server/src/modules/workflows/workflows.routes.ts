import { Permission, workflowRunsApi, workflowsApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import { readIdempotencyKey } from '../tasks/task-request-key.ts';
import type { WorkflowRuns } from './workflow-runs.service.ts';
import type { WorkflowsService } from './workflows.service.ts';

export function registerWorkflowsRoutes(
  route: Routes,
  { workflows, workflowRuns }: { workflows: WorkflowsService; workflowRuns: WorkflowRuns },
) {
  const manage = projectMember(Permission.manageProjectResources);
  const run = projectMember(Permission.runProjectTasks);
  route(workflowsApi.list, projectMember(), ({ access }) => workflows.list(access.project.id));
  route(workflowsApi.create, manage, ({ actor, access, body }) => workflows.create(actor, access, body));
  route(workflowsApi.validate, manage, ({ access, body }) => workflows.validate(access, body));
  route(workflowsApi.get, projectMember(), ({ access, params }) => workflows.get(access.project.id, params.workflowId));
  route(workflowsApi.update, manage, ({ actor, access, params, query, body }) =>
    workflows.update(actor, access, params.workflowId, body, query.revision),
  );
  route(workflowsApi.remove, manage, ({ actor, access, params }) =>
    workflows.remove(actor, access.project.id, params.workflowId),
  );
  route(workflowsApi.yaml, projectMember(), async ({ access, params, reply }) =>
    reply.type('application/yaml; charset=utf-8').send(await workflows.getYaml(access.project.id, params.workflowId)),
  );
  route(workflowsApi.versions, projectMember(), ({ access, params }) =>
    workflows.listVersions(access.project.id, params.workflowId),
  );
  route(workflowsApi.version, projectMember(), ({ access, params }) =>
    workflows.getVersion(access.project.id, params.workflowId, params.version),
  );
  route(workflowRunsApi.start, run, ({ actor, access, params, body, request }) =>
    workflowRuns.start(
      actor,
      access.project.id,
      params.workflowId,
      body.variables,
      readIdempotencyKey(request.headers),
    ),
  );
  route(workflowRunsApi.list, projectMember(), ({ access, params }) =>
    workflowRuns.list(access.project.id, params.workflowId),
  );
  route(workflowRunsApi.stats, projectMember(), ({ access, params, query }) =>
    workflowRuns.stats(access.project.id, params.workflowId, query),
  );
  route(workflowRunsApi.get, projectMember(), ({ actor, access, params }) =>
    workflowRuns.get(actor, access.project.id, params.workflowId, params.runId),
  );
  route(workflowRunsApi.approve, run, ({ actor, access, params, body }) =>
    workflowRuns.decide(actor, { ...params, projectId: access.project.id }, 'approve', body.reason),
  );
  route(workflowRunsApi.reject, run, ({ actor, access, params, body }) =>
    workflowRuns.decide(actor, { ...params, projectId: access.project.id }, 'reject', body.reason),
  );
  route(workflowRunsApi.retry, run, ({ actor, access, params, body }) =>
    workflowRuns.retry(actor, access.project.id, params.workflowId, params.runId, body.step),
  );
  route(workflowRunsApi.stop, run, ({ actor, access, params }) =>
    workflowRuns.stop(actor, access.project.id, params.workflowId, params.runId),
  );
}
