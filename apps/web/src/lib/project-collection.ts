import type { QueryKey, UseQueryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Endpoint, EndpointBody, EndpointParams, ResourceRefs } from '@gantry/contract';
import { request } from './api-client.ts';
import { useRefreshingMutation, useSaveMutation } from './mutations.ts';

/** The endpoints of a project's collection that its list page and edit dialog call (the contract's `<kind>Api`). */
interface CollectionEndpoints {
  create: Endpoint;
  update: Endpoint;
  remove: Endpoint;
  refs: RefsEndpoint;
}

type RefsEndpoint = Endpoint<z.ZodType, z.ZodType, z.ZodType, z.ZodType<ResourceRefs>>;

/** The item's own path parameter, beside `projectId` (`keyId` in /project/:projectId/keys/:keyId). */
type ItemIdParam<E extends CollectionEndpoints> = Exclude<keyof EndpointParams<E['update']> & string, 'projectId'>;

interface ProjectCollectionSpec<E extends CollectionEndpoints, T, TKey extends QueryKey> {
  /** The translation section of the kind (`keys.title`, `keys.deleteTitle`...). */
  section: string;
  endpoints: E;
  idParam: ItemIdParam<E>;
  /** The query of the project's rows. */
  query: (projectId: number) => UseQueryOptions<T[], Error, T[], TKey>;
  /** What a save or a delete refetches: the kind's lists, and any other list that shows its rows. */
  refresh: (projectId: number) => readonly QueryKey[];
}

/**
 * The mutations of a project resource that has a list page and an edit dialog: save (create or
 * update) and delete, each refetching the kind's lists, and the references shown before a delete.
 */
export function defineProjectCollection<E extends CollectionEndpoints, T, TKey extends QueryKey>({
  section,
  endpoints,
  idParam,
  query,
  refresh,
}: ProjectCollectionSpec<E, T, TKey>) {
  type Body = EndpointBody<E['create']> & EndpointBody<E['update']>;
  const itemParams = (projectId: number, id: number) => ({ projectId, [idParam]: id });
  return {
    useSave: (projectId: number) =>
      useSaveMutation<Body>(
        refresh(projectId),
        (body) => request(endpoints.create, { params: { projectId }, body }),
        (id, body) => request(endpoints.update, { params: itemParams(projectId, id), body }),
      ),
    /** The kind as its list page knows it (useResourceList). */
    resource: {
      section,
      query,
      useRemove: (projectId: number) =>
        useRefreshingMutation(refresh(projectId), (id: number) =>
          request(endpoints.remove, { params: itemParams(projectId, id) }),
        ),
      loadRefs: (projectId: number, id: number) =>
        request<RefsEndpoint>(endpoints.refs, { params: itemParams(projectId, id) }),
    },
  };
}
