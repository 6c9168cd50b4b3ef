import {
  Permission,
  RUNNER_STARTED_AT_HEADER,
  RUNNER_TOKEN_HEADER,
  projectRunnersApi,
  runnerProtocolApi,
  runnersApi,
} from '@gantry/contract';
import type { FastifyRequest } from 'fastify';
import type { Routes } from '../../http/route.ts';
import { ADMIN, PUBLIC, projectMember } from '../../http/route.ts';
import type { RunnerJobs } from './runner-jobs.ts';
import type { RunnerRegistration } from './runner-registration.ts';
import type { RunnersService } from './runners.service.ts';

const manage = projectMember(Permission.manageProjectResources);

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function registerRunnersRoutes(
  route: Routes,
  {
    runners,
    runnerJobs,
    runnerRegistration,
  }: { runners: RunnersService; runnerJobs: RunnerJobs; runnerRegistration: RunnerRegistration },
) {
  route(runnersApi.list, ADMIN, () => runners.list(null));
  route(runnersApi.create, ADMIN, ({ actor, body }) => runners.create(actor, null, body));
  route(runnersApi.get, ADMIN, ({ params }) => runners.get(null, params.runnerId));
  route(runnersApi.update, ADMIN, ({ actor, params, body }) => runners.update(actor, null, params.runnerId, body));
  route(runnersApi.setActive, ADMIN, ({ actor, params, body }) =>
    runners.setActive(actor, null, params.runnerId, body.active),
  );
  route(runnersApi.remove, ADMIN, ({ actor, params }) => runners.remove(actor, null, params.runnerId));

  route(projectRunnersApi.list, manage, ({ params }) => runners.list(params.projectId));
  route(projectRunnersApi.create, manage, ({ actor, params, body }) => runners.create(actor, params.projectId, body));
  route(projectRunnersApi.get, manage, ({ params }) => runners.get(params.projectId, params.runnerId));
  route(projectRunnersApi.update, manage, ({ actor, params, body }) =>
    runners.update(actor, params.projectId, params.runnerId, body),
  );
  route(projectRunnersApi.setActive, manage, ({ actor, params, body }) =>
    runners.setActive(actor, params.projectId, params.runnerId, body.active),
  );
  route(projectRunnersApi.remove, manage, ({ actor, params }) =>
    runners.remove(actor, params.projectId, params.runnerId),
  );

  // The runner protocol: no user session, the runner's own token in X-Runner-Token.
  route(runnerProtocolApi.register, PUBLIC, ({ body, request }) => runnerRegistration.register(body, request.ip));
  route(runnerProtocolApi.poll, PUBLIC, ({ request, query }) =>
    runnerJobs.poll(header(request, RUNNER_TOKEN_HEADER), header(request, RUNNER_STARTED_AT_HEADER), query.wait),
  );
  route(runnerProtocolApi.progress, PUBLIC, ({ request, body }) =>
    runnerJobs.progress(header(request, RUNNER_TOKEN_HEADER), body.Jobs ?? []),
  );
  route(runnerProtocolApi.unregister, PUBLIC, ({ request }) =>
    runnerRegistration.unregister(header(request, RUNNER_TOKEN_HEADER)),
  );
}
