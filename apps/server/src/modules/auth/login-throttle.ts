import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { tooManyRequests } from '../../errors.ts';
import type { AuthRepository } from './auth.repository.ts';

/** Who is trying: the account (login name, or another subject such as a user's second factor) and the client address when known. */
export interface AttemptSubject {
  account: string;
  address?: string;
}

export interface AttemptReservation {
  /** The attempt succeeded: it stops counting against the limits. */
  release(): Promise<void>;
}

export interface LoginThrottleOptions {
  attempts: Pick<
    AuthRepository,
    'insertLoginAttempt' | 'deleteLoginAttempt' | 'listRecentAttempts' | 'deleteLoginAttemptsBefore'
  >;
  clock: Clock;
  /** Failed attempts allowed per account from one address within the window. */
  maxFailures: number;
  windowMs: number;
  /** The refusal text, given the seconds until the next attempt is allowed. */
  describeRefusal(retryAfterSeconds: number): string;
}

/**
 * An address may fail this many times the per-account limit in all, whatever accounts it tries: one
 * address cannot sweep many accounts, while a shared address (an office behind one NAT) still gets
 * room for its people's typos.
 */
const ADDRESS_LIMIT_FACTOR = 5;
const SWEEP_INTERVAL_MS = 60_000;
/** Widths of login_attempt.address and login_attempt.account. */
const ADDRESS_MAX = 64;
const ACCOUNT_MAX = 255;

/**
 * Counts sign-in attempts in the store, so that every server node on it shares the counts. An
 * attempt is written down before its password is checked and only then counted, so concurrent
 * attempts each see the ones written before them: of many parallel tries, no more than the limit
 * get their password checked. A successful attempt is taken back; failed ones count until they
 * leave the window. The per-account limit is keyed by account and address, so nobody elsewhere is
 * locked out of an account by someone else's failures.
 */
export function createLoginThrottle(options: LoginThrottleOptions) {
  const addressLimit = options.maxFailures * ADDRESS_LIMIT_FACTOR;
  let lastSweep = 0;

  /** Seconds until fewer than `limit` of the newest attempts (newest first) remain in the window; 0 when already fewer. */
  function waitSeconds(times: string[], limit: number, now: number): number {
    const blocking = times[limit - 1];
    if (blocking === undefined) return 0;
    return Math.max(1, Math.ceil((Date.parse(blocking) + options.windowMs - now) / 1000));
  }

  return {
    /** Counts an attempt before it is checked; refuses it with 429 and Retry-After when a limit is reached. */
    async reserve(subject: AttemptSubject): Promise<AttemptReservation> {
      const now = options.clock.now().getTime();
      const since = toTimestamp(new Date(now - options.windowMs));
      if (now - lastSweep > SWEEP_INTERVAL_MS) {
        lastSweep = now;
        await options.attempts.deleteLoginAttemptsBefore(since);
      }
      // Cut to the columns' widths: a 255-character login name can lower-case to more characters than that.
      const address = (subject.address ?? '').slice(0, ADDRESS_MAX);
      const account = subject.account.slice(0, ACCOUNT_MAX);
      const id = await options.attempts.insertLoginAttempt({ address, account, attempted: toTimestamp(new Date(now)) });
      const release = () => options.attempts.deleteLoginAttempt(id);
      const accountTimes = await options.attempts.listRecentAttempts({
        address,
        account,
        since,
        exceptId: id,
        limit: options.maxFailures,
      });
      let wait = waitSeconds(accountTimes, options.maxFailures, now);
      if (subject.address !== undefined) {
        const addressTimes = await options.attempts.listRecentAttempts({
          address,
          since,
          exceptId: id,
          limit: addressLimit,
        });
        wait = Math.max(wait, waitSeconds(addressTimes, addressLimit, now));
      }
      if (wait > 0) {
        // A refused attempt was never checked: it does not extend the lock.
        await release();
        throw tooManyRequests(options.describeRefusal(wait), wait);
      }
      return { release };
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
