import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest } from '../../errors.ts';

/**
 * A caller that may send the same request twice (its node died before answering, a webhook sender
 * redelivers) names the request with a key; a second request with that key gets the task (or
 * workflow run) the first one made. `Idempotency-Key` is the API's header (docs/scale-out.md); webhook senders' own delivery
 * ids count as well, since they keep them across their retries.
 */
const IDEMPOTENCY_KEY = 'idempotency-key';
const DELIVERY_ID_HEADERS = [IDEMPOTENCY_KEY, 'x-github-delivery', 'x-gitea-delivery', 'x-gogs-delivery'];

const INVALID_IDEMPOTENCY_KEY = 'Idempotency-Key must be 1 to 255 printable ASCII characters';

/** The key a header holds, bare or quoted as a structured-field string; null when it is not a usable key. */
function parseKey(value: string | string[] | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return null;
  const trimmed = value.trim();
  const key = trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
  return /^[\x20-\x7e]{1,255}$/.test(key) ? key : null;
}

/** The API's Idempotency-Key, if sent; a malformed one is refused. */
export function readIdempotencyKey(headers: IncomingHttpHeaders): string | undefined {
  const key = parseKey(headers[IDEMPOTENCY_KEY]);
  if (key === null) throw badRequest(INVALID_IDEMPOTENCY_KEY);
  return key;
}

/** The first usable delivery id of a webhook call; the sender cannot be told to fix a malformed one, so it is passed over. */
export function readDeliveryId(headers: IncomingHttpHeaders): string | undefined {
  for (const name of DELIVERY_ID_HEADERS) {
    const key = parseKey(headers[name]);
    if (key) return key;
  }
  return undefined;
}

/** Who sent a key: a user, or an integration acting for its sender. */
export interface RequestCaller {
  userId?: number | undefined;
  integrationId?: number | undefined;
}

/**
 * What the row keeps: a fixed-size hash of who asked and their key, so two callers' keys never meet; null without
 * a key.
 */
export function hashRequestKey(caller: RequestCaller, key: string | undefined): string | null {
  if (key === undefined) return null;
  const who = caller.integrationId === undefined ? `user ${caller.userId ?? 0}` : `integration ${caller.integrationId}`;
  return createHash('sha256').update(`${who}\n${key}`).digest('hex');
}

/**
 * Makes a keyed request's row once. The row an earlier request with the key made (`findEarlier`, which refuses one
 * made for something else) is the answer; else `create` makes it. When another node stores the same request's row
 * at the same moment, the store's unique index refuses the later insert, and both answer with the first one's row.
 */
export async function createOnce<T>(
  requestKey: string | null,
  findEarlier: (requestKey: string) => Promise<T | undefined>,
  create: () => Promise<T>,
): Promise<T> {
  if (requestKey === null) return create();
  const earlier = await findEarlier(requestKey);
  if (earlier !== undefined) return earlier;
  try {
    return await create();
  } catch (error) {
    const winner = isUniqueViolation(error) ? await findEarlier(requestKey) : undefined;
    if (winner === undefined) throw error;
    return winner;
  }
}
