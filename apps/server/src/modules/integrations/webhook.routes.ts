import { WEBHOOK_MAX_BODY_BYTES, webhookApi } from '@gantry/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../../errors.ts';
import type { WebhookService } from './webhook.service.ts';

/**
 * The public integration URL. It lives in its own encapsulated scope because signatures are computed
 * over the exact bytes received: here every body, whatever its content type, stays a raw Buffer.
 */
export async function registerWebhookRoutes(
  app: FastifyInstance,
  { webhooks }: { webhooks: WebhookService },
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_MAX_BODY_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    scope.route({
      method: [...webhookApi.methods],
      url: webhookApi.path,
      bodyLimit: WEBHOOK_MAX_BODY_BYTES,
      // Link checkers and monitors send HEAD freely; it must never start a task.
      exposeHeadRoute: false,
      // The alias is the only guard of an integration without authentication: request logs name the route, never the alias.
      logSerializers: {
        req: (request: FastifyRequest) => ({ method: request.method, url: webhookApi.path, remoteAddress: request.ip }),
      },
      schema: { hide: true },
      handler: async (request, reply) => {
        const parsed = webhookApi.params.safeParse(request.params);
        if (!parsed.success) throw notFound('Integration');
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const { started } = await webhooks.handle(parsed.data.alias, request.headers, body);
        const last = started.at(-1);
        if (last && 'task' in last) {
          reply.header(webhookApi.taskIdHeader, String(last.task.id));
          reply.header(webhookApi.templateIdHeader, String(last.task.template_id));
          reply.header(webhookApi.projectIdHeader, String(last.task.project_id));
          reply.header(webhookApi.integrationIdHeader, String(last.integrationId));
        } else if (last) {
          reply.header(webhookApi.workflowRunIdHeader, String(last.run.id));
          reply.header(webhookApi.workflowIdHeader, String(last.run.workflowId));
          reply.header(webhookApi.projectIdHeader, String(last.run.projectId));
          reply.header(webhookApi.integrationIdHeader, String(last.integrationId));
        }
        return reply.code(204).send();
      },
    });
  });
}
