import type { QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Endpoint, EndpointBody, EndpointParams, ResourceRefs } from '@gantry/contract';
import { itemTextsOf } from './item-texts.ts';
import { request } from './api-client.ts';
import { useRefreshingMutation, useSaveMutation } from './mutations.ts';
import {
  environmentsQuery,
  inventoriesQuery,
  keysQuery,
  repositoriesQuery,
  resourceKeys,
  schedulesQuery,
} from './project-resources.ts';

/** The list of each collection, by its section (which names its translations and its key in resourceKeys). */
const collectionQueries = {
  keys: keysQuery,
  repositories: repositoriesQuery,
  inventories: inventoriesQuery,
  environments: environmentsQuery,
  schedules: schedulesQuery,
};
type CollectionSection = keyof typeof collectionQueries;

/** What each collection's texts call one item: `Key` in `keys.newKey`. */
const collectionNouns: Record<CollectionSection, string> = {
  keys: 'Key',
  repositories: 'Repository',
  inventories: 'Inventory',
  environments: 'Environment',
  schedules: 'Schedule',
};

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

/**
 * The mutations of a project collection that has a list page and an edit dialog: save (create or
 * update) and delete, each refetching the collection's lists (all of them, whatever their filter)
 * and `alsoRefresh` (another list that shows its rows), and the references shown before a delete.
 */
export function defineProjectCollection<S extends CollectionSection, E extends CollectionEndpoints>(
  section: S,
  endpoints: E,
  idParam: ItemIdParam<E>,
  alsoRefresh?: (projectId: number) => QueryKey,
) {
  type Body = EndpointBody<E['create']> & EndpointBody<E['update']>;
  const refresh = (projectId: number): QueryKey[] =>
    alsoRefresh ? [resourceKeys[section](projectId), alsoRefresh(projectId)] : [resourceKeys[section](projectId)];
  const itemParams = (projectId: number, id: number) => ({ projectId, [idParam]: id });
  return {
    useSave: (projectId: number) =>
      useSaveMutation<Body>(
        refresh(projectId),
        (body) => request(endpoints.create, { params: { projectId }, body }),
        (id, body) => request(endpoints.update, { params: itemParams(projectId, id), body }),
      ),
    /** What a change refetches, for the collection's other mutations. */
    refresh,
    /** The collection as its list page knows it (useResourceList). */
    resource: {
      section,
      texts: itemTextsOf(section, collectionNouns[section]),
      query: collectionQueries[section],
      useRemove: (projectId: number) =>
        useRefreshingMutation(refresh(projectId), (id: number) =>
          request(endpoints.remove, { params: itemParams(projectId, id) }),
        ),
      loadRefs: (projectId: number, id: number) =>
        request<RefsEndpoint>(endpoints.refs, { params: itemParams(projectId, id) }),
    },
  };
}
