import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorCode, totpApi } from '@gantry/contract';
import { api, buildUrl, isApiError } from '../../../lib/api-client.ts';
import { currentUserQuery } from '../../../lib/shared-queries.ts';

export type SecondFactor = 'totp' | 'totp_enroll';

/** The second factor a 401 of /api/user says the session awaits, if that is why it was refused. */
export function secondFactorOf(error: unknown): SecondFactor | undefined {
  if (!isApiError(error, 401)) return undefined;
  if (error.code === ErrorCode.totpRequired) return 'totp';
  if (error.code === ErrorCode.totpEnrollRequired) return 'totp_enroll';
  return undefined;
}

/** Once the session is verified, everything cached for it so far is stale. */
export function useRefreshSession() {
  const queryClient = useQueryClient();
  return async () => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== currentUserQuery.queryKey[0] });
    await queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey });
  };
}

export function useVerifyPasscode() {
  const refresh = useRefreshSession();
  return useMutation({
    mutationFn: (passcode: string) => api(totpApi.verify, { body: { passcode } }),
    onSuccess: refresh,
  });
}

export function useRecoverWithCode() {
  const refresh = useRefreshSession();
  return useMutation({
    mutationFn: (recoveryCode: string) => api(totpApi.recovery, { body: { recovery_code: recoveryCode } }),
    onSuccess: refresh,
  });
}

export function useStartEnrolmentAtLogin() {
  return useMutation({ mutationFn: () => api(totpApi.enrolAtLogin) });
}

/** Confirms without refreshing the session yet: the recovery code must be shown first. */
export function useConfirmEnrolmentAtLogin() {
  return useMutation({
    mutationFn: ({ totpId, passcode }: { totpId: number; passcode: string }) =>
      api(totpApi.confirmAtLogin, { params: { totpId }, body: { passcode } }),
  });
}

export function enrolmentQrUrl(totpId: number): string {
  return buildUrl(totpApi.qrAtLogin.path, { totpId });
}
