import type { Db } from '../db/database.ts';
import type { SecretBox } from './secret-box.ts';
import { createSecretsRepository } from './secrets.repository.ts';

/** Seals every stored secret again with another key, in one transaction; returns how many it re-sealed. */
export function resealStoredSecrets(db: Db, from: SecretBox, to: SecretBox): Promise<number> {
  return createSecretsRepository(db).resealAll((sealed) => to.seal(from.open(sealed)));
}
