import { useMutation, useQueryClient } from '@tanstack/react-query';
import { usersApi } from '@gantry/contract';
import type { CreateUserBody, PasswordBody, UpdateUserBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { currentUserQuery, usersQuery } from '../../../lib/shared-queries.ts';

function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: usersQuery.queryKey }),
      // The signed-in user may be the one that changed.
      queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
    ]);
}

export function useCreateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({ mutationFn: (body: CreateUserBody) => api(usersApi.create, { body }), onSuccess: invalidate });
}

export function useUpdateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ userId, body }: { userId: number; body: UpdateUserBody }) =>
      api(usersApi.update, { params: { userId }, body }),
    onSuccess: invalidate,
  });
}

export function useDeleteUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (userId: number) => api(usersApi.remove, { params: { userId } }),
    onSuccess: invalidate,
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, body }: { userId: number; body: PasswordBody }) =>
      api(usersApi.setPassword, { params: { userId }, body }),
    // The server may end the sessions of a user whose password changed; if it ended ours, the
    // refetch sends us to the sign-in page now rather than at some later click.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}
