import { randomBytes } from 'node:crypto';
import { notFound, unauthorized } from '../../errors.ts';
import { hashSecret } from '../../secrets/secret-hash.ts';
import type { RunnersRepository } from './runners.repository.ts';
import type { RunnerRow } from './runners.table.ts';

/** A new runner token: shown once, stored only as its hash (secrets/secret-hash.ts). */
export function generateRunnerToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The runner a request's token belongs to. */
export async function authenticateRunner(
  runners: Pick<RunnersRepository, 'findByTokenHash'>,
  token: string | undefined,
): Promise<RunnerRow> {
  if (!token) throw unauthorized('Invalid token');
  const runner = await runners.findByTokenHash(hashSecret(token));
  if (!runner) throw notFound('Runner');
  return runner;
}
