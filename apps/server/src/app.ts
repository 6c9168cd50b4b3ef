import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { createRouter } from './http/route.ts';
import { registerWebApp } from './http/static-web.ts';
import { registerWebsocket } from './http/websocket.ts';
import { registerSchedulesRoutes } from './modules/schedules/schedules.routes.ts';
import { registerTasksRoutes } from './modules/tasks/tasks.routes.ts';
import { registerAppsRoutes } from './modules/apps/apps.routes.ts';
import { registerAuthRoutes } from './modules/auth/auth.routes.ts';
import { registerEnvironmentsRoutes } from './modules/environments/environments.routes.ts';
import { registerInventoriesRoutes } from './modules/inventories/inventories.routes.ts';
import { registerKeysRoutes } from './modules/keys/keys.routes.ts';
import { registerRepositoriesRoutes } from './modules/repositories/repositories.routes.ts';
import { registerTemplatesRoutes } from './modules/templates/templates.routes.ts';
import { registerViewsRoutes } from './modules/views/views.routes.ts';
import { registerEventsRoutes } from './modules/events/events.routes.ts';
import { registerProjectsRoutes } from './modules/projects/projects.routes.ts';
import { registerSystemRoutes } from './modules/system/system.routes.ts';
import { registerTeamRoutes } from './modules/team/team.routes.ts';
import { registerUsersRoutes } from './modules/users/users.routes.ts';
import type { Services } from './services.ts';
import { GANTRY_VERSION } from './version.ts';

/** Builds the HTTP application around ready services. It never listens; main.ts and tests decide that. */
export async function buildApp({ config, services }: { config: Config; services: Services }): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: services.logger,
    bodyLimit: config.max_body_bytes,
    trustProxy: config.trust_proxy,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Gantry API', version: GANTRY_VERSION } },
    transform: jsonSchemaTransform,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());

  app.get('/api/ping', { schema: { hide: true } }, (_request, reply) => reply.type('text/plain; charset=utf-8').send('pong'));

  const route = createRouter(app, services);
  registerAuthRoutes(route, services);
  registerUsersRoutes(route, services);
  registerProjectsRoutes(route, services);
  registerTeamRoutes(route, services);
  registerEventsRoutes(route, services);
  registerSystemRoutes(route, { config });
  registerKeysRoutes(route, services);
  registerRepositoriesRoutes(route, services);
  registerInventoriesRoutes(route, services);
  registerEnvironmentsRoutes(route, services);
  registerViewsRoutes(route, services);
  registerTemplatesRoutes(route, services);
  registerAppsRoutes(route, services);
  registerTasksRoutes(route, services);
  registerSchedulesRoutes(route, services);
  await registerWebsocket(app, services);

  await registerWebApp(app, config.web_dist_dir);
  return app;
}
