import { queryOptions, useQuery } from '@tanstack/react-query';
import { hasPermissions, projectsApi, systemApi, userApi, usersApi, type PremiumFeature } from '@gantry/contract';
import { api } from './api-client.ts';

/** The signed-in user. A 401 here means "not signed in" and is never retried. */
export const currentUserQuery = queryOptions({
  queryKey: ['user'],
  queryFn: ({ signal }) => api(userApi.current, { signal }),
  retry: false,
  staleTime: 60_000,
});

export const systemInfoQuery = queryOptions({
  queryKey: ['info'],
  queryFn: ({ signal }) => api(systemApi.info, { signal }),
  staleTime: 5 * 60_000,
});

/** Whether the server offers a feature Semaphore sells as "pro"; undefined until the system info is known. */
export function usePremiumFeature(feature: PremiumFeature): boolean | undefined {
  const info = useQuery(systemInfoQuery);
  return info.data ? info.data.premium_features[feature] === true : undefined;
}

export const projectsQuery = queryOptions({
  queryKey: ['projects'],
  queryFn: ({ signal }) => api(projectsApi.list, { signal }),
});

export const projectRoleQuery = (projectId: number) =>
  queryOptions({
    queryKey: ['projects', projectId, 'role'],
    queryFn: ({ signal }) => api(projectsApi.role, { params: { projectId }, signal }),
  });

export interface ProjectAccess {
  /** True once both the user and the role are known. */
  isReady: boolean;
  isAdmin: boolean;
  role: string;
  /** Admins pass every check; others need all the bits asked for. */
  can: (permissions: number) => boolean;
}

export function useProjectAccess(projectId: number): ProjectAccess {
  const user = useQuery(currentUserQuery);
  const role = useQuery(projectRoleQuery(projectId));
  const isAdmin = user.data?.admin ?? false;
  const granted = role.data?.permissions ?? 0;
  return {
    isReady: user.isSuccess && (role.isSuccess || role.isError),
    isAdmin,
    role: role.data?.role ?? '',
    can: (permissions) => isAdmin || (role.isSuccess && hasPermissions(granted, permissions)),
  };
}

/** All users: full records for admins, id, name and username for everyone else. */
export const usersQuery = queryOptions({
  queryKey: ['users'],
  queryFn: ({ signal }) => api(usersApi.list, { signal }),
});
