import { queryOptions, useMutation } from '@tanstack/react-query';
import { buildUrl, api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/mutations.ts';
import { currentUserQuery } from '../../../lib/shared-queries.ts';
import { totpApi, userApi } from '@gantry/contract';
import type { UserTotp } from '@gantry/contract';

export const apiTokensQuery = queryOptions({
  queryKey: ['user', 'tokens'],
  queryFn: ({ signal }) => api(userApi.listTokens, { signal }),
});

export function useCreateApiToken() {
  return useRefreshingMutation([apiTokensQuery.queryKey], (body: { name: string; expires_at: string | null }) =>
    api(userApi.createToken, { body }),
  );
}

export function useRevokeApiToken() {
  return useRefreshingMutation([apiTokensQuery.queryKey], (tokenId: string) =>
    api(userApi.deleteToken, { params: { tokenId } }),
  );
}

/** Where the enrolment's QR code image is served (the browser sends the session cookie). */
export function totpQrUrl(totp: UserTotp): string {
  return buildUrl(totpApi.qr.path, { userId: totp.user_id, totpId: totp.id });
}

export function useStartTotpEnrolment() {
  return useMutation({ mutationFn: (userId: number) => api(totpApi.enrol, { params: { userId } }) });
}

export function useConfirmTotp() {
  return useRefreshingMutation(
    [currentUserQuery.queryKey],
    ({ totp, passcode }: { totp: UserTotp; passcode: string }) =>
      api(totpApi.confirm, { params: { userId: totp.user_id, totpId: totp.id }, body: { passcode } }),
  );
}

export function useRemoveTotp() {
  return useRefreshingMutation(
    [currentUserQuery.queryKey],
    ({ userId, totpId, passcode }: { userId: number; totpId: number; passcode: string }) =>
      api(totpApi.remove, { params: { userId, totpId }, body: { passcode } }),
  );
}
