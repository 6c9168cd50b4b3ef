import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InvalidateQueryFilters, QueryKey } from '@tanstack/react-query';

/** A query key (the queries under it refetch too), or filters for the rarer cases (`exact`). */
type Refresh = QueryKey | InvalidateQueryFilters;

const isQueryKey = (entry: Refresh): entry is QueryKey => Array.isArray(entry);

interface RefreshingMutationOptions<TVariables> {
  /** Refetch after a failure as well: a switch that saves at once must show the server's state either way. */
  alsoAfterFailure?: boolean;
  /** Runs before the request, to show its outcome at once (an optimistic switch). */
  onMutate?: (variables: TVariables) => unknown;
}

/**
 * A mutation that refetches the queries it changes once the server has answered. The mutation
 * stays pending until they are refetched, so a dialog closes on fresh data.
 */
export function useRefreshingMutation<TVariables = void, TResult = unknown>(
  refresh: readonly Refresh[],
  mutationFn: (variables: TVariables) => Promise<TResult>,
  { alsoAfterFailure = false, onMutate }: RefreshingMutationOptions<TVariables> = {},
) {
  const queryClient = useQueryClient();
  const refetch = () =>
    Promise.all(refresh.map((entry) => queryClient.invalidateQueries(isQueryKey(entry) ? { queryKey: entry } : entry)));
  return useMutation({ mutationFn, onMutate, ...(alsoAfterFailure ? { onSettled: refetch } : { onSuccess: refetch }) });
}

/** Saving a resource from its form: an id updates that resource, none creates a new one. */
export interface SaveVariables<TBody> {
  id?: number;
  body: TBody;
}

export function useSaveMutation<TBody>(
  refresh: readonly Refresh[],
  create: (body: TBody) => Promise<unknown>,
  update: (id: number, body: TBody) => Promise<unknown>,
) {
  return useRefreshingMutation(refresh, async ({ id, body }: SaveVariables<TBody>): Promise<void> => {
    if (id) await update(id, body);
    else await create(body);
  });
}
