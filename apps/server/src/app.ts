import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { TERRAFORM_BACKEND_PATH, backupApi, runnerProtocolApi, webhookApi } from '@gantry/contract';
import type { Config } from './config.ts';
import { stripApiTrailingSlash } from './http/api-trailing-slash.ts';
import { registerCrossSiteGuard } from './http/cross-site-guard.ts';
import { answerFrameworkError, answerMalformedRequest, registerErrorHandler } from './http/error-handler.ts';
import { registerMetrics } from './metrics/metrics.routes.ts';
import { registerResponsePolicy } from './http/response-policy.ts';
import { createResponseSerializer } from './http/response-serializer.ts';
import { registerTextGuard } from './http/text-guard.ts';
import { registerSilentConnectionsClose } from './http/silent-connections.ts';
import { createCallerChecks, registerBodyLimits, registerJsonBodyParser } from './http/request-body.ts';
import { createRouter } from './http/route.ts';
import { registerWebApp } from './http/static-web.ts';
import { registerWebsocket } from './http/websocket.ts';
import { registerSchedulesRoutes } from './modules/schedules/schedules.routes.ts';
import { registerAlertsRoutes } from './modules/alerts/alerts.routes.ts';
import { registerIntegrationsRoutes } from './modules/integrations/integrations.routes.ts';
import { registerWebhookRoutes } from './modules/integrations/webhook.routes.ts';
import { registerTasksRoutes } from './modules/tasks/tasks.routes.ts';
import { registerRunnersRoutes } from './modules/runners/runners.routes.ts';
import { registerAppsRoutes } from './modules/apps/apps.routes.ts';
import { registerAuthRoutes } from './modules/auth/auth.routes.ts';
import { registerOidcRoutes } from './modules/auth/oidc/oidc.routes.ts';
import { registerBackupRoutes } from './modules/backup/backup.routes.ts';
import { registerTotpRoutes } from './modules/auth/totp.routes.ts';
import { registerEnvironmentsRoutes } from './modules/environments/environments.routes.ts';
import { registerInventoriesRoutes } from './modules/inventories/inventories.routes.ts';
import { registerKeysRoutes } from './modules/keys/keys.routes.ts';
import { registerRepositoriesRoutes } from './modules/repositories/repositories.routes.ts';
import { registerTemplatesRoutes } from './modules/templates/templates.routes.ts';
import { registerViewsRoutes } from './modules/views/views.routes.ts';
import { registerWorkflowsRoutes } from './modules/workflows/workflows.routes.ts';
import { registerTerraformBackend } from './modules/terraform/terraform-backend.routes.ts';
import { registerTerraformRoutes } from './modules/terraform/terraform.routes.ts';
import { registerEventsRoutes } from './modules/events/events.routes.ts';
import { registerProjectsRoutes } from './modules/projects/projects.routes.ts';
import { registerSystemRoutes } from './modules/system/system.routes.ts';
import { registerTeamRoutes } from './modules/projects/team.routes.ts';
import { registerUsersRoutes } from './modules/users/users.routes.ts';
import type { Services } from './services.ts';
import { GANTRY_VERSION } from './version.ts';

/** Public endpoints that machines call without a session, each guarding itself and reading bodies its own way. */
const OWN_BODY_ROUTES = [webhookApi.path, `${TERRAFORM_BACKEND_PATH}/:alias`];
const MACHINE_ROUTES = [...OWN_BODY_ROUTES, runnerProtocolApi.register.path];

interface AppParts {
  config: Config;
  services: Services;
  /** Parse every response with zod as well and fail on any difference from the compiled copy (tests). */
  verifyResponses?: boolean;
}

/** Builds the HTTP application around ready services. It never listens; main.ts and tests decide that. */
export async function buildApp({ config, services, verifyResponses = false }: AppParts): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: services.logger,
    bodyLimit: config.max_body_bytes,
    trustProxy: config.trust_proxy,
    rewriteUrl: (request) => stripApiTrailingSlash(request.url ?? '/'),
    clientErrorHandler: answerMalformedRequest,
    frameworkErrors: answerFrameworkError,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createResponseSerializer({ verify: verifyResponses }));
  registerErrorHandler(app);
  registerTextGuard(app, { relayed: [runnerProtocolApi.progress] });
  await registerResponsePolicy(app);
  await app.register(fastifyCookie);
  registerCrossSiteGuard(app, { webHost: config.web_host, machineRoutes: (url) => MACHINE_ROUTES.includes(url) });
  registerJsonBodyParser(app);
  const callers = createCallerChecks(services);
  registerBodyLimits(app, {
    maxBodyBytes: config.max_body_bytes,
    largeBodyRoutes: new Map([
      [backupApi.restore.path, callers.isUser],
      [runnerProtocolApi.progress.path, callers.isRunner],
    ]),
    ownLimitRoutes: (url) => OWN_BODY_ROUTES.includes(url),
    isKnownCaller: callers.isKnownCaller,
  });
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Gantry API', version: GANTRY_VERSION } },
    transform: jsonSchemaTransform,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());

  app.get('/api/ping', { schema: { hide: true } }, (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send('pong'),
  );

  const route = createRouter(app, services);
  registerAuthRoutes(route, services);
  registerOidcRoutes(route, services);
  registerTotpRoutes(route, services);
  registerUsersRoutes(route, services);
  registerProjectsRoutes(route, services);
  registerBackupRoutes(route, services);
  registerTeamRoutes(route, services);
  registerEventsRoutes(route, services);
  registerSystemRoutes(route, { config, readiness: services.readiness });
  registerMetrics(app, { metrics: services.metrics, auth: services.auth, metricsToken: config.metrics_token });
  registerKeysRoutes(route, services);
  registerRepositoriesRoutes(route, services);
  registerInventoriesRoutes(route, services);
  registerEnvironmentsRoutes(route, services);
  registerViewsRoutes(route, services);
  registerWorkflowsRoutes(route, services);
  registerTemplatesRoutes(route, services);
  registerTerraformRoutes(route, services);
  registerAppsRoutes(route, services);
  registerTasksRoutes(route, services);
  registerRunnersRoutes(route, services);
  // Runners hold long polls open; let them go so closing does not wait for them.
  app.addHook('preClose', () => services.runnerJobs.close());
  registerSchedulesRoutes(route, services);
  registerAlertsRoutes(route, services);
  registerIntegrationsRoutes(route, services);
  await registerWebhookRoutes(app, services);
  await registerWebsocket(app, { ...services, webHost: config.web_host });
  await registerTerraformBackend(app, services);

  await registerWebApp(app, config.web_dist_dir);
  // Last: its preClose hook runs right before the server stops accepting connections.
  registerSilentConnectionsClose(app);
  return app;
}
