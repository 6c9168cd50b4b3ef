import { z } from 'zod';
import { NoContent, PathId, ProjectParams, TaskParamsPath } from './common.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One HTTP endpoint of the wire: path, input schemas and the response allowlist, declared once. */
export interface Endpoint<
  TParams extends z.ZodType = z.ZodType,
  TQuery extends z.ZodType = z.ZodType,
  TBody extends z.ZodType = z.ZodType,
  TResponse extends z.ZodType = z.ZodType,
> {
  method: Method;
  path: string;
  params?: TParams;
  query?: TQuery;
  body?: TBody;
  response: TResponse;
  status: number;
}

/** Identity helper that keeps the literal schema types of an endpoint for inference. */
export function endpoint<
  TParams extends z.ZodType = z.ZodType,
  TQuery extends z.ZodType = z.ZodType,
  TBody extends z.ZodType = z.ZodType,
  TResponse extends z.ZodType = z.ZodType,
>(
  spec: Omit<Endpoint<TParams, TQuery, TBody, TResponse>, 'status'> & { status?: number },
): Endpoint<TParams, TQuery, TBody, TResponse> {
  return { ...spec, status: spec.status ?? 200 };
}

/** What an endpoint below a prefix declares: the prefix gives its path's start and its params. */
type EndpointBelowSpec<
  TParams extends z.ZodType,
  TQuery extends z.ZodType,
  TBody extends z.ZodType,
  TResponse extends z.ZodType,
> = Omit<Endpoint<TParams, TQuery, TBody, TResponse>, 'path' | 'params' | 'status'> & { status?: number };

/** Declares endpoints below one path prefix, whose path params (`params`) they all take: `subpath` follows the prefix. */
export function scopeEndpoints<TParams extends z.ZodType>(prefix: string, params: TParams) {
  return <
    TQuery extends z.ZodType = z.ZodType,
    TBody extends z.ZodType = z.ZodType,
    TResponse extends z.ZodType = z.ZodType,
  >(
    subpath: string,
    spec: EndpointBelowSpec<TParams, TQuery, TBody, TResponse>,
  ): Endpoint<TParams, TQuery, TBody, TResponse> => endpoint({ ...spec, path: `${prefix}${subpath}`, params });
}

/** An endpoint of one project: `subpath` below `/api/project/:projectId`. */
export const projectEndpoint = scopeEndpoints('/api/project/:projectId', ProjectParams);

/** An endpoint of one task of a project: `subpath` below `/api/project/:projectId/tasks/:taskId`. */
export const taskEndpoint = scopeEndpoints('/api/project/:projectId/tasks/:taskId', TaskParamsPath);

export type EndpointParams<E> = E extends Endpoint<infer P, z.ZodType, z.ZodType, z.ZodType> ? z.input<P> : never;
export type EndpointQuery<E> = E extends Endpoint<z.ZodType, infer Q, z.ZodType, z.ZodType> ? z.input<Q> : never;
export type EndpointBody<E> = E extends Endpoint<z.ZodType, z.ZodType, infer B, z.ZodType> ? z.input<B> : never;
export type EndpointResponse<E> = E extends Endpoint<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;

/**
 * The five endpoints of a collection: `list` and `create` on `path`, `get`, `update` (204) and
 * `remove` (204) on `itemPath`. `created` is what create answers when it is not the item itself;
 * `updateBody` what update takes when it differs from what create takes; `createStatus` the status
 * create answers (201 unless the wire says otherwise).
 */
export function collectionEndpoints<
  TListParams extends z.ZodType,
  TItemParams extends z.ZodType,
  TQuery extends z.ZodType,
  TBody extends z.ZodType,
  TItem extends z.ZodType,
  TCreated extends z.ZodType = TItem,
  TUpdateBody extends z.ZodType = TBody,
>(spec: {
  path: string;
  itemPath: string;
  listParams?: TListParams;
  itemParams: TItemParams;
  query?: TQuery;
  body: TBody;
  item: TItem;
  created?: TCreated;
  updateBody?: TUpdateBody;
  createStatus?: number;
}) {
  const listParams = spec.listParams ? { params: spec.listParams } : {};
  const params = spec.itemParams;
  return {
    list: endpoint<TListParams, TQuery, z.ZodType, z.ZodArray<TItem>>({
      method: 'GET',
      path: spec.path,
      ...listParams,
      ...(spec.query ? { query: spec.query } : {}),
      response: z.array(spec.item),
    }),
    create: endpoint<TListParams, z.ZodType, TBody, TCreated>({
      method: 'POST',
      path: spec.path,
      ...listParams,
      body: spec.body,
      response: spec.created ?? (spec.item as z.ZodType as TCreated),
      status: spec.createStatus ?? 201,
    }),
    get: endpoint({ method: 'GET', path: spec.itemPath, params, response: spec.item }),
    update: endpoint<TItemParams, z.ZodType, TUpdateBody, typeof NoContent>({
      method: 'PUT',
      path: spec.itemPath,
      params,
      body: spec.updateBody ?? (spec.body as z.ZodType as TUpdateBody),
      response: NoContent,
      status: 204,
    }),
    remove: endpoint({ method: 'DELETE', path: spec.itemPath, params, response: NoContent, status: 204 }),
  };
}

/** The refs endpoint a resource has when given a `refs` schema. */
type RefsEndpoint<TParams extends z.ZodType, TRefs> = TRefs extends z.ZodType
  ? { refs: Endpoint<TParams, z.ZodType, z.ZodType, TRefs> }
  : object;

/**
 * The endpoints of a resource that lives below a parent (a project, an integration): collectionEndpoints
 * on `path`, whose items are `path/:id` with the parent's `params` and the item's id; with `refs`, also
 * `refs` (GET `path/:id/refs`): what uses an item, which the UI asks before a delete.
 */
export function resourceEndpoints<
  TShape extends z.ZodRawShape,
  K extends string,
  TQuery extends z.ZodType,
  TBody extends z.ZodType,
  TItem extends z.ZodType,
  TCreated extends z.ZodType = TItem,
  TRefs extends z.ZodType | undefined = undefined,
>(spec: {
  path: string;
  params: z.ZodObject<TShape>;
  id: K;
  query?: TQuery;
  body: TBody;
  item: TItem;
  created?: TCreated;
  createStatus?: number;
  refs?: TRefs;
}) {
  const { path, params, id, refs, ...rest } = spec;
  const itemPath = `${path}/:${id}`;
  const itemParams = params.extend({ [id]: PathId } as Record<K, typeof PathId>);
  const endpoints = collectionEndpoints<typeof params, typeof itemParams, TQuery, TBody, TItem, TCreated>({
    path,
    itemPath,
    listParams: params,
    itemParams,
    ...rest,
  });
  const refsEndpoint = refs
    ? { refs: endpoint({ method: 'GET', path: `${itemPath}/refs`, params: itemParams, response: refs }) }
    : {};
  return { ...endpoints, ...refsEndpoint } as typeof endpoints & RefsEndpoint<typeof itemParams, TRefs>;
}
