import { usersApi } from '@gantry/contract';
import type { CreateUserBody, PasswordBody, UpdateUserBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/mutations.ts';
import { currentUserQuery, usersQuery } from '../../../lib/shared-queries.ts';

// The signed-in user may be the one that changed.
const refresh = [usersQuery.queryKey, currentUserQuery.queryKey];

/** A new user's body, or an existing user's id and changes. */
export type SaveUserVariables = { body: CreateUserBody } | { userId: number; body: UpdateUserBody };

/** Creates or updates a user; answers with the name the user is saved under. */
export function useSaveUser() {
  return useRefreshingMutation(refresh, async (variables: SaveUserVariables): Promise<string> => {
    if ('userId' in variables) {
      await api(usersApi.update, { params: { userId: variables.userId }, body: variables.body });
      return variables.body.name;
    }
    return (await api(usersApi.create, { body: variables.body })).name;
  });
}

export function useDeleteUser() {
  return useRefreshingMutation(refresh, (userId: number) => api(usersApi.remove, { params: { userId } }));
}

/**
 * The server may end the sessions of a user whose password changed; if it ended ours, the refetch
 * sends us to the sign-in page now rather than at some later click.
 */
export function useChangePassword() {
  return useRefreshingMutation(
    [currentUserQuery.queryKey],
    ({ userId, body }: { userId: number; body: PasswordBody }) =>
      api(usersApi.setPassword, { params: { userId }, body }),
  );
}
