import type { Endpoint } from '@gantry/contract';
import { Permission } from '@gantry/contract';
import type { z } from 'zod';
import type { ProjectAccess } from '../modules/projects/projects.service.ts';
import type { UserRow } from '../modules/users/users.table.ts';
import type { Handler, Routes } from './route.ts';
import { projectMember } from './route.ts';

/** A resource's standard endpoints, as the contract's resourceEndpoints declares them. */
interface ResourceApi {
  list: Endpoint;
  create: Endpoint;
  get: Endpoint;
  update: Endpoint;
  remove: Endpoint;
  refs?: Endpoint;
}

/** The name of an item's id in the path (`keyId`): one of the get endpoint's params. */
type ItemId<A extends ResourceApi> = keyof z.output<NonNullable<A['get']['params']>> & string;
type Body<E extends Endpoint> = z.output<NonNullable<E['body']>>;
type Answer<E extends Endpoint> = Promise<z.input<E['response']>>;

/**
 * What the resource's service offers for those endpoints (`refs` when the resource has them). Each
 * method takes the ids of the resource's scope first (`S`: the project's, an integration's), then the
 * item's id where there is one.
 */
type ResourceService<A extends ResourceApi, S extends unknown[]> = {
  create(actor: UserRow, ...args: [...S, Body<A['create']>]): Answer<A['create']>;
  /** `access` is the reader's, for a resource that shows some of an item only to some roles. */
  get(...args: [...S, number, ProjectAccess?]): Answer<A['get']>;
  update(actor: UserRow, ...args: [...S, number, Body<A['update']>]): Answer<A['update']>;
  remove(actor: UserRow, ...args: [...S, number]): Answer<A['remove']>;
} & (A['refs'] extends Endpoint ? { refs(...args: [...S, number]): Answer<A['refs']> } : object);

const read = projectMember();
const manage = projectMember(Permission.manageProjectResources);

interface ResourceRoutes<A extends ResourceApi, K extends ItemId<A>, S extends unknown[]> {
  /** The name of the item's id in the path. */
  id: K;
  /** The ids the service takes before the item's: the project's, and the parent's for a resource below another. */
  scope(access: ProjectAccess, params: z.output<NonNullable<A['list']['params']>>): S;
  service: ResourceService<A, S>;
  /** The list, whose filters and order differ from resource to resource. */
  list: Handler<A['list'], typeof read>;
}

/**
 * Registers a resource's standard routes in a project, one service call each: any member reads (list,
 * get, refs), changes take manageProjectResources.
 */
export function routeResource<A extends ResourceApi, K extends ItemId<A>, S extends unknown[]>(
  route: Routes,
  api: A,
  { id, scope, service, list }: ResourceRoutes<A, K, S>,
): void {
  type ScopeParams = z.output<NonNullable<A['list']['params']>>;
  type ItemParams = ScopeParams & Record<K, number>;
  const item = (access: ProjectAccess, params: unknown): [...S, number] => {
    const itemParams = params as ItemParams;
    return [...scope(access, itemParams), itemParams[id]];
  };
  route(api.list, read, list);
  route<A['create'], typeof manage>(api.create, manage, ({ actor, access, params, body }) =>
    service.create(actor, ...scope(access, params as ScopeParams), body),
  );
  route(api.get, read, ({ access, params }) => service.get(...item(access, params), access));
  if (api.refs && 'refs' in service)
    route(api.refs, read, ({ access, params }) => service.refs(...item(access, params)));
  route<A['update'], typeof manage>(api.update, manage, ({ actor, access, params, body }) =>
    service.update(actor, ...item(access, params), body),
  );
  route(api.remove, manage, ({ actor, access, params }) => service.remove(actor, ...item(access, params)));
}

/** routeResource for a resource directly in a project: its service takes the project's id first. */
export function routeProjectResource<A extends ResourceApi, K extends ItemId<A>>(
  route: Routes,
  api: A,
  id: K,
  service: ResourceService<A, [projectId: number]>,
  list: Handler<A['list'], typeof read>,
): void {
  routeResource(route, api, { id, scope: (access) => [access.project.id], service, list });
}
