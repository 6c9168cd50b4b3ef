import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { buildUrl, api } from '../../../lib/api-client.ts';
import { currentUserQuery } from '../../../lib/shared-queries.ts';
import { totpApi, userApi } from '@gantry/contract';
import type { UserTotp } from '@gantry/contract';

export const apiTokensQuery = queryOptions({
  queryKey: ['user', 'tokens'],
  queryFn: ({ signal }) => api(userApi.listTokens, { signal }),
});

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; expires_at: string | null }) => api(userApi.createToken, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQuery.queryKey }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) => api(userApi.deleteToken, { params: { tokenId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQuery.queryKey }),
  });
}

/** Where the enrolment's QR code image is served (the browser sends the session cookie). */
export function totpQrUrl(totp: UserTotp): string {
  return buildUrl(totpApi.qr.path, { userId: totp.user_id, totpId: totp.id });
}

export function useStartTotpEnrolment() {
  return useMutation({ mutationFn: (userId: number) => api(totpApi.enrol, { params: { userId } }) });
}

export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ totp, passcode }: { totp: UserTotp; passcode: string }) =>
      api(totpApi.confirm, { params: { userId: totp.user_id, totpId: totp.id }, body: { passcode } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}

export function useRemoveTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, totpId }: { userId: number; totpId: number }) =>
      api(totpApi.remove, { params: { userId, totpId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
  });
}
