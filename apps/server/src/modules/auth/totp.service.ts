import { randomBytes } from 'node:crypto';
import { ErrorCode, TOTP_DISABLED, TOTP_ENROLL_REQUIRED, TOTP_REQUIRED } from '@gantry/contract';
import type { AuthMethods, UserTotp, UserTotpStatus } from '@gantry/contract';
import { Secret, TOTP } from 'otpauth';
import { loadOnDemand } from '../../load-on-demand.ts';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { AppError, badRequest, forbidden, unauthorized } from '../../errors.ts';
import type { SecretBox } from '../../secrets/secret-box.ts';
import type { EventsService } from '../events/events.service.ts';
import type { UserRow } from '../users/users.table.ts';
import type { Credential } from '../../http/session-cookie.ts';
import type { SessionInfo, SessionLookup } from './session.ts';
import { assertSessionCredential } from './session-only.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { TotpRepository } from './totp.repository.ts';
import type { UserTotpRow } from './totp.table.ts';

/** What a session still awaits: nothing, a TOTP passcode, or the TOTP enrolment the server requires. */
export type PendingFactor = '' | 'totp' | 'totp_enroll';

// The parameters every authenticator app understands: SHA-1, 6 digits, 30-second steps.
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Codes one step either side of now are accepted, for clocks that drift a little. */
const WINDOW_STEPS = 1;
const ISSUER = 'Gantry';
const QR_SIZE = 256;
const loadQrCode = loadOnDemand<typeof import('qrcode')>('qrcode');

export function describeAuthMethods(config: Config): AuthMethods {
  return config.totp_enabled
    ? { totp: { allow_recovery: config.totp_allow_recovery, required: config.totp_required } }
    : {};
}

/** The 401 every API but the second-factor steps answers while a session awaits its factor. */
export function secondFactorRequired(pending: string): AppError {
  return pending === 'totp_enroll'
    ? new AppError(401, ErrorCode.totpEnrollRequired, TOTP_ENROLL_REQUIRED)
    : new AppError(401, ErrorCode.totpRequired, TOTP_REQUIRED);
}

const totpDisabled = () => new AppError(403, ErrorCode.totpDisabled, TOTP_DISABLED);
const TOTP_NOT_ENABLED = 'TOTP not enabled';
const PASSCODE_TO_TURN_OFF = 'Enter a code from your authenticator app to turn off two-factor authentication';

/** 20 characters from a 32-letter alphabet without look-alikes (0/O, 1/I), grouped by four: easy to copy and type back. */
function generateRecoveryCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const chars = Array.from(randomBytes(20), (byte) => alphabet[byte % alphabet.length]).join('');
  return chars.match(/.{4}/g)?.join('-') ?? chars;
}

/** Recovery codes are compared without case, spaces or dashes, as people type them back. */
function normalizeRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

interface TotpDeps {
  config: Config;
  clock: Clock;
  secrets: SecretBox;
  totp: TotpRepository;
  events: EventsService;
  /** Failed passcodes and recovery codes, counted per user: a stolen password alone cannot brute-force six digits. */
  throttle: LoginThrottle;
  sessions: SessionLookup;
}

export function createTotpService({ config, clock, secrets, totp, events, throttle, sessions }: TotpDeps) {
  function buildTotp(row: Pick<UserTotpRow, 'secret'>, label: string): TOTP {
    return new TOTP({
      issuer: ISSUER,
      label,
      algorithm: 'SHA1',
      digits: DIGITS,
      period: PERIOD_SECONDS,
      secret: Secret.fromBase32(secrets.open(row.secret)),
    });
  }

  function assertEnabled(): void {
    if (!config.totp_enabled) throw badRequest(TOTP_NOT_ENABLED);
  }

  /** Counts a code attempt before it is checked; every node on the store shares the count. */
  function reserveAttempt(userId: number) {
    return throttle.reserve({ account: `totp:${userId}` });
  }

  /**
   * Checks a passcode against the factor and spends its time step. A code is good once: the same
   * code (or an older one) presented again is refused even within its 30 seconds.
   */
  async function spendPasscode(
    row: UserTotpRow,
    user: UserRow,
    passcode: string,
    options: { confirming: boolean },
  ): Promise<number> {
    const attempt = await reserveAttempt(user.id);
    const now = clock.now().getTime();
    const delta = buildTotp(row, user.username).validate({ token: passcode, timestamp: now, window: WINDOW_STEPS });
    const step = Math.floor(now / 1000 / PERIOD_SECONDS) + (delta ?? 0);
    const fresh = delta !== null && (options.confirming || (await totp.claimStep(row.id, step)));
    if (!fresh)
      throw badRequest(
        delta === null ? 'Invalid passcode' : 'This passcode has already been used. Wait for the next one.',
      );
    await attempt.release();
    return step;
  }

  async function startEnrolment(user: UserRow): Promise<UserTotp> {
    assertEnabled();
    const existing = await totp.findByUser(user.id);
    if (existing?.confirmed === 1) throw badRequest('TOTP already enabled');
    // An unconfirmed enrolment is simply replaced: its secret was never proven to reach an app.
    if (existing) await totp.deleteByUser(user.id);
    const secret = new Secret({ size: 20 });
    const recoveryCode = config.totp_allow_recovery ? generateRecoveryCode() : undefined;
    const row = {
      user_id: user.id,
      created: toTimestamp(clock.now()),
      secret: secrets.seal(secret.base32),
      recovery_hash: recoveryCode ? await hashPassword(normalizeRecoveryCode(recoveryCode)) : null,
      confirmed: 0,
      last_used_step: null,
    };
    const id = await totp.insert(row);
    return {
      id,
      created: row.created,
      user_id: user.id,
      url: buildTotp(row, user.username).toString(),
      ...(recoveryCode ? { recovery_code: recoveryCode } : {}),
    };
  }

  /** The enrolment named by id, still unconfirmed: only then may its secret be shown again as a QR code. */
  async function getPendingEnrolment(userId: number, totpId: number): Promise<UserTotpRow> {
    assertEnabled();
    const row = await totp.findByUser(userId);
    if (!row || row.id !== totpId) throw badRequest(TOTP_NOT_ENABLED);
    if (row.confirmed === 1) throw badRequest('TOTP already enabled');
    return row;
  }

  async function renderQr(user: UserRow, totpId: number): Promise<Buffer> {
    const row = await getPendingEnrolment(user.id, totpId);
    return loadQrCode().toBuffer(buildTotp(row, user.username).toString(), { type: 'png', width: QR_SIZE, margin: 2 });
  }

  async function confirmEnrolment(user: UserRow, totpId: number, passcode: string): Promise<void> {
    const row = await getPendingEnrolment(user.id, totpId);
    const step = await spendPasscode(row, user, passcode, { confirming: true });
    await totp.confirm(row.id, step);
    await events.record({
      userId: user.id,
      objectType: 'user',
      objectId: user.id,
      description: `Two-factor authentication enabled for ${user.username}`,
    });
  }

  function assertSelf(actor: UserRow, userId: number): void {
    // The secret is for the user's own authenticator; not even an admin enrols someone else.
    if (actor.id !== userId) throw forbidden('You can set up two-factor authentication only for yourself');
  }

  /** The session behind the cookie, in any state; 401 without one. */
  async function requireSession(sessionToken: string | undefined): Promise<SessionInfo> {
    const session = sessionToken ? await sessions.findSession(sessionToken) : undefined;
    if (!session) throw unauthorized();
    return session;
  }

  async function requireEnrolmentSession(sessionToken: string | undefined): Promise<SessionInfo> {
    const session = await requireSession(sessionToken);
    if (session.pendingFactor !== 'totp_enroll') throw badRequest('No TOTP enrolment is required for this session');
    return session;
  }

  return {
    /** What a new session of the user must pass before it may use the API. */
    async pendingFactorFor(userId: number): Promise<PendingFactor> {
      if (!config.totp_enabled) return '';
      const row = await totp.findByUser(userId);
      if (row?.confirmed === 1) return 'totp';
      return config.totp_required ? 'totp_enroll' : '';
    },

    async statusOf(userId: number): Promise<UserTotpStatus | undefined> {
      const row = await totp.findByUser(userId);
      return row?.confirmed === 1 ? { id: row.id, created: row.created, user_id: row.user_id } : undefined;
    },

    enrol(actor: UserRow, userId: number, credential: Credential): Promise<UserTotp> {
      assertSessionCredential(credential, 'two-factor authentication');
      assertSelf(actor, userId);
      return startEnrolment(actor);
    },

    qr(actor: UserRow, userId: number, totpId: number, credential: Credential): Promise<Buffer> {
      assertSessionCredential(credential, 'two-factor authentication');
      assertSelf(actor, userId);
      return renderQr(actor, totpId);
    },

    confirm(actor: UserRow, userId: number, totpId: number, passcode: string, credential: Credential): Promise<void> {
      assertSessionCredential(credential, 'two-factor authentication');
      assertSelf(actor, userId);
      return confirmEnrolment(actor, totpId, passcode);
    },

    /**
     * Removes a user's factor: anyone's for an admin (a lost phone), one's own with a current passcode,
     * so that a session taken over cannot switch the second factor off.
     */
    async remove(
      actor: UserRow,
      userId: number,
      totpId: number,
      passcode: string | undefined,
      credential: Credential,
    ): Promise<void> {
      assertSessionCredential(credential, 'two-factor authentication');
      if (actor.admin !== 1 && actor.id !== userId) throw forbidden('Only administrators can manage other users');
      const row = await totp.findByUser(userId);
      if (!row || row.id !== totpId) throw badRequest(TOTP_NOT_ENABLED);
      if (actor.id === userId && row.confirmed === 1) {
        if (!passcode) throw badRequest(PASSCODE_TO_TURN_OFF);
        await spendPasscode(row, actor, passcode, { confirming: false });
      }
      await totp.deleteByUser(userId);
      if (row.confirmed === 1) {
        await events.record({
          userId: actor.id,
          objectType: 'user',
          objectId: userId,
          description: `Two-factor authentication removed for user #${userId}`,
        });
      }
    },

    /** The operator's way back in for a user who lost both phone and recovery code (`gantry user totp-remove`). */
    async removeForUser(userId: number): Promise<boolean> {
      const row = await totp.findByUser(userId);
      if (!row) return false;
      await totp.deleteByUser(userId);
      await events.record({
        userId: null,
        objectType: 'user',
        objectId: userId,
        description: `Two-factor authentication removed for user #${userId} from the command line`,
      });
      return true;
    },

    /** Sign-in, second step: a passcode turns the session into a verified one. */
    async verify(sessionToken: string | undefined, passcode: string): Promise<void> {
      if (!config.totp_enabled) throw totpDisabled();
      const session = await requireSession(sessionToken);
      if (session.pendingFactor === '') return;
      if (session.pendingFactor === 'totp_enroll') throw secondFactorRequired(session.pendingFactor);
      const row = await totp.findByUser(session.user.id);
      if (row?.confirmed !== 1) throw badRequest(TOTP_NOT_ENABLED);
      await spendPasscode(row, session.user, passcode, { confirming: false });
      await totp.setSessionPendingFactor(session.id, '');
    },

    /**
     * Sign-in with the recovery code instead of a passcode. The code is single-use by construction:
     * it removes the factor, so the user sets up a new one (at once, when the server requires it).
     */
    async recover(sessionToken: string | undefined, recoveryCode: string): Promise<void> {
      if (!config.totp_enabled || !config.totp_allow_recovery) throw totpDisabled();
      const session = await requireSession(sessionToken);
      const row = await totp.findByUser(session.user.id);
      if (row?.confirmed !== 1) throw badRequest(TOTP_NOT_ENABLED);
      const attempt = await reserveAttempt(session.user.id);
      if (!(await verifyPassword(row.recovery_hash, normalizeRecoveryCode(recoveryCode))))
        throw badRequest('Invalid recovery code');
      await attempt.release();
      await totp.deleteByUser(session.user.id);
      await totp.setSessionPendingFactor(session.id, config.totp_required ? 'totp_enroll' : '');
      await events.record({
        userId: session.user.id,
        objectType: 'user',
        objectId: session.user.id,
        description: `${session.user.username} signed in with the recovery code; two-factor authentication removed`,
      });
    },

    async enrolAtLogin(sessionToken: string | undefined): Promise<UserTotp> {
      return startEnrolment((await requireEnrolmentSession(sessionToken)).user);
    },

    async qrAtLogin(sessionToken: string | undefined, totpId: number): Promise<Buffer> {
      return renderQr((await requireEnrolmentSession(sessionToken)).user, totpId);
    },

    async confirmAtLogin(sessionToken: string | undefined, totpId: number, passcode: string): Promise<void> {
      const session = await requireEnrolmentSession(sessionToken);
      await confirmEnrolment(session.user, totpId, passcode);
      await totp.setSessionPendingFactor(session.id, '');
    },
  };
}

export type TotpService = ReturnType<typeof createTotpService>;
