import { describe, expect, it } from 'vitest';
import { backupFileName, readBackupFile } from './backup-queries.ts';

const file = (text: string) => new File([text], 'backup.json', { type: 'application/json' });

describe('backup files', () => {
  it('names a backup after the project id and the UTC time, safe for every file system', () => {
    expect(backupFileName(7, new Date('2026-11-21T03:04:05.678Z'))).toBe('gantry-project-7-2026-11-21T03-04-05Z.json');
  });

  it('reads a JSON object with a meta section as a backup', async () => {
    expect(await readBackupFile(file('{"meta":{"name":"A"},"keys":[]}'))).toEqual({ meta: { name: 'A' }, keys: [] });
  });

  it('refuses truncated JSON, arrays and documents without meta', async () => {
    expect(await readBackupFile(file('{"meta": {"na'))).toBeUndefined();
    expect(await readBackupFile(file('[1, 2]'))).toBeUndefined();
    expect(await readBackupFile(file('{"templates": []}'))).toBeUndefined();
    expect(await readBackupFile(file('{"meta": "x"}'))).toBeUndefined();
  });
});
