import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Config } from '../config.ts';
import { connectDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { KEY_FILE_NAME, loadEncryptionKey } from '../secrets/encryption-key.ts';
import { createSecretBox } from '../secrets/secret-box.ts';
import { resealStoredSecrets } from '../secrets/secret-rotation.ts';
import { CliError } from './cli-context.ts';

/**
 * `gantry secrets rotate`: seals every stored secret with a new key. With the key file, the old
 * file is kept as gantry.key.old; with GANTRY_ACCESS_KEY_ENCRYPTION the new key is printed to set.
 */
export function registerSecretsCommands(
  program: Command,
  readConfig: () => Config,
  print: (line: string) => void,
): void {
  const secrets = program.command('secrets').description('manage the key that encrypts stored secrets');
  secrets
    .command('rotate')
    .description('re-encrypt every stored secret with a new key (stop the server first)')
    .option('--new-key <base64>', 'the new key (32 bytes, base64); a random one by default')
    .action(async (flags: { newKey?: string }) => {
      const config = readConfig();
      const newKey = flags.newKey ? Buffer.from(flags.newKey, 'base64') : randomBytes(32);
      if (newKey.length !== 32)
        throw new CliError('--new-key must be 32 bytes in base64 (e.g. from: openssl rand -base64 32)');
      const oldBox = createSecretBox(loadEncryptionKey(config.access_key_encryption, config.data_dir));
      const newBox = createSecretBox(newKey);
      const { db, dialect } = connectDatabase(config.db_dialect, config.db_url);
      try {
        await migrateToLatest(db, dialect);
        const count = await resealStoredSecrets(db, oldBox, newBox);
        print(`Re-encrypted ${count} secret(s).`);
      } finally {
        await db.destroy();
      }
      if (config.access_key_encryption) {
        print('Set GANTRY_ACCESS_KEY_ENCRYPTION to the new key before the next start:');
        print(newKey.toString('base64'));
        return;
      }
      const file = path.join(config.data_dir, KEY_FILE_NAME);
      if (existsSync(file)) copyFileSync(file, `${file}.old`);
      writeFileSync(file, `${newKey.toString('base64')}\n`, { mode: 0o600 });
      print(`The new key is in ${file}; the previous one was kept as ${file}.old. Back up the new key.`);
    });
}
