import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { authApi } from '@gantry/contract';
import type { LoginBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshSession } from './second-factor-queries.ts';

export const loginOptionsQuery = queryOptions({
  queryKey: ['auth', 'login-options'],
  queryFn: ({ signal }) => api(authApi.loginOptions, { signal }),
  staleTime: Infinity,
});

/** Signs in, then refreshes the current user so every screen sees the new session. */
export function useLogin() {
  const refresh = useRefreshSession();
  return useMutation({
    mutationFn: (body: LoginBody) => api(authApi.login, { body }),
    onSuccess: refresh,
  });
}

/** Signs out and forgets everything cached for the old session, whatever the server answered. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(authApi.logout),
    onSettled: () => queryClient.clear(),
  });
}
