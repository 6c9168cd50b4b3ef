import type { Endpoint } from '@gantry/contract';
import { PathId, hasPermissions } from '@gantry/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { z } from 'zod';
import { badRequest, forbidden, notFound, unauthorized } from '../errors.ts';
import type { AuthService } from '../modules/auth/auth.service.ts';
import { secondFactorRequired } from '../modules/auth/totp.service.ts';
import type { ProjectAccess, ProjectsService } from '../modules/projects/projects.service.ts';
import type { UserRow } from '../modules/users/users.table.ts';
import { readBearerToken, readSessionCookie } from './session-cookie.ts';

/**
 * Who may call an endpoint. `project` routes need membership (or admin) plus the listed permission
 * bits; `self` routes the user the path's `userId` names, or an administrator; `creator` routes whoever
 * may create projects.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'user' }
  | { kind: 'admin' }
  | { kind: 'self' }
  | { kind: 'creator' }
  | { kind: 'project'; permissions: number };

export const PUBLIC = { kind: 'public' } as const satisfies Access;
export const SIGNED_IN = { kind: 'user' } as const satisfies Access;
export const ADMIN = { kind: 'admin' } as const satisfies Access;
export const SELF_OR_ADMIN = { kind: 'self' } as const satisfies Access;
export const PROJECT_CREATOR = { kind: 'creator' } as const satisfies Access;
/** Any member of the project (and admins) holding all of the given permission bits. */
export const projectMember = (permissions = 0) => ({ kind: 'project', permissions }) as const satisfies Access;

/** OpenAPI operation extension holding the route's Access. */
const ACCESS_EXTENSION = 'x-gantry-access';

export interface RouteDeps {
  auth: AuthService;
  projects: ProjectsService;
}

interface BaseContext<E extends Endpoint> {
  params: z.output<NonNullable<E['params']>>;
  query: z.output<NonNullable<E['query']>>;
  body: z.output<NonNullable<E['body']>>;
  request: FastifyRequest;
  reply: FastifyReply;
}

type ContextFor<E extends Endpoint, A extends Access> = BaseContext<E> &
  (A extends { kind: 'public' }
    ? { actor: UserRow | undefined }
    : A extends { kind: 'project' }
      ? { actor: UserRow; access: ProjectAccess }
      : { actor: UserRow });

export type Handler<E extends Endpoint, A extends Access> = (
  context: ContextFor<E, A>,
) => Promise<z.input<E['response']>> | z.input<E['response']>;

export type Routes = ReturnType<typeof createRouter>;

interface Resolved {
  actor: UserRow | undefined;
  access?: ProjectAccess;
}

/** Maps contract endpoints onto Fastify routes, resolving the caller and their project access first. */
export function createRouter(app: FastifyInstance, deps: RouteDeps) {
  async function findActor(request: FastifyRequest, access: Access): Promise<UserRow | undefined> {
    const bearer = readBearerToken(request);
    if (bearer) return deps.auth.findTokenUser(bearer);
    const token = readSessionCookie(request);
    const session = token ? await deps.auth.findSession(token) : undefined;
    if (session?.pendingFactor) {
      // Public routes (sign-in, the second-factor steps) see such a session as no session at all.
      if (access.kind === 'public') return undefined;
      throw secondFactorRequired(session.pendingFactor);
    }
    return session?.user;
  }

  // Runs before input validation, so that a caller without access learns nothing about the input rules.
  async function resolve(request: FastifyRequest, access: Access): Promise<Resolved> {
    const actor = await findActor(request, access);
    if (access.kind === 'public') return { actor };
    if (!actor) throw unauthorized();
    if (access.kind === 'admin' && actor.admin !== 1) throw forbidden('Only administrators can do this');
    if (access.kind === 'self' && actor.admin !== 1) {
      const userId = PathId.safeParse((request.params as { userId?: string }).userId ?? '');
      if (!userId.success || userId.data !== actor.id) throw forbidden('Only administrators can manage other users');
    }
    if (access.kind === 'creator' && !deps.projects.canCreate(actor))
      throw forbidden('You are not allowed to create projects');
    if (access.kind !== 'project') return { actor };
    const rawProjectId = (request.params as { projectId?: string }).projectId ?? '';
    // The contract's range check: PostgreSQL refuses a larger number in the query instead of finding no row.
    const projectId = PathId.safeParse(rawProjectId);
    if (!projectId.success) throw badRequest('Invalid project ID');
    const projectAccess = await deps.projects.findAccess(actor, projectId.data);
    if (!projectAccess) throw notFound('Project');
    if (!hasPermissions(projectAccess.permissions, access.permissions)) throw forbidden();
    return { actor, access: projectAccess };
  }

  const resolvedByRequest = new WeakMap<FastifyRequest, Resolved>();

  return function route<E extends Endpoint, A extends Access>(endpoint: E, access: A, handler: Handler<E, A>): void {
    // Published in the OpenAPI document so that clients and the role-matrix tests know who may call it.
    const extensions = { [ACCESS_EXTENSION]: access };
    const schema: FastifySchema = {
      ...extensions,
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.status === 204 ? {} : { response: { [endpoint.status]: endpoint.response } }),
    };
    app.route({
      method: endpoint.method,
      url: endpoint.path,
      schema,
      preValidation: async (request) => {
        resolvedByRequest.set(request, await resolve(request, access));
      },
      handler: async (request, reply) => {
        const resolved = resolvedByRequest.get(request);
        const context = {
          ...resolved,
          params: request.params,
          query: request.query,
          body: request.body,
          request,
          reply,
        } as ContextFor<E, A>;
        const result = await handler(context);
        // A handler that answered by itself (plain text, a stream) is done.
        if (reply.sent) return reply;
        reply.code(endpoint.status);
        return endpoint.status === 204 ? reply.send() : result;
      },
    });
  };
}
