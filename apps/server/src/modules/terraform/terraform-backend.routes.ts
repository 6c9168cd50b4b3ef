import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { NO_STATE_MESSAGE, TERRAFORM_BACKEND_PATH } from '@gantry/contract';
import type { BackendReply, TerraformBackendService } from './terraform-backend.service.ts';

const Params = z.object({ alias: z.string().min(1).max(255) });
/** Terraform names the lock it holds in ?ID= when it writes or deletes a locked state. */
const Query = z.object({ ID: z.string().max(255).optional() });

type Operation = (
  backend: TerraformBackendService,
  target: Awaited<ReturnType<TerraformBackendService['authenticate']>>,
  body: string,
  lockId: string | undefined,
) => Promise<BackendReply>;

const OPERATIONS: Record<string, Operation> = {
  GET: (backend, target) => backend.getState(target),
  POST: (backend, target, body, lockId) => backend.putState(target, body, lockId),
  LOCK: (backend, target, body) => backend.lock(target, body),
  UNLOCK: (backend, target, body) => backend.unlock(target, body),
  DELETE: (backend, target, _body, lockId) => backend.deleteState(target, lockId),
};

/**
 * The Terraform/OpenTofu HTTP state backend at /api/terraform/{alias}: terraform's own protocol
 * (raw state bodies, LOCK/UNLOCK methods, HTTP Basic auth), so it lives outside the JSON router.
 */
export async function registerTerraformBackend(
  app: FastifyInstance,
  { terraformBackend }: { terraformBackend: TerraformBackendService },
): Promise<void> {
  for (const method of ['LOCK', 'UNLOCK']) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }
  await app.register(async (scope) => {
    // States are stored byte for byte, and terraform's force-unlock sends an empty body as JSON.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    // The alias and its credentials are checked before a byte of the body is read: a state may be
    // as large as max_body_bytes, which only a caller with the credentials may send.
    const targets = new WeakMap<FastifyRequest, Awaited<ReturnType<TerraformBackendService['authenticate']>>>();
    scope.addHook('preParsing', async (request, _reply, payload) => {
      const alias = (request.params as { alias?: unknown }).alias;
      targets.set(
        request,
        await terraformBackend.authenticate(
          typeof alias === 'string' ? alias : '',
          request.headers.authorization,
          request.ip,
        ),
      );
      return payload;
    });
    scope.addHook('onSend', async (_request, reply, payload) => {
      if (reply.statusCode === 401) reply.header('WWW-Authenticate', 'Basic realm="terraform-state"');
      return payload;
    });

    for (const [method, operation] of Object.entries(OPERATIONS)) {
      scope.route({
        method,
        url: `${TERRAFORM_BACKEND_PATH}/:alias`,
        schema: { params: Params, querystring: Query, hide: true },
        handler: async (request: FastifyRequest, reply: FastifyReply) => {
          const { alias } = request.params as z.output<typeof Params>;
          const { ID } = request.query as z.output<typeof Query>;
          const target =
            targets.get(request) ??
            (await terraformBackend.authenticate(alias, request.headers.authorization, request.ip));
          const body = typeof request.body === 'string' ? request.body : '';
          const result = await operation(terraformBackend, target, body, ID);
          reply.code(result.status).header('cache-control', 'no-store');
          if (result.body !== undefined) return reply.type('application/json').send(result.body);
          if (result.status === 404) return reply.send({ error: NO_STATE_MESSAGE, code: 'not_found' });
          return reply.send();
        },
      });
    }
  });
}
