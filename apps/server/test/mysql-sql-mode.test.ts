import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createConnection } from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, readTestEnvironment } from '../src/config.ts';
import { openMigratedStore } from '../src/runtime.ts';
import { createTestDatabase, listTestDialects } from './test-databases.ts';

const hasMysql = (await listTestDialects()).includes('mysql');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-sql-mode-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// Values the driver quotes into the statement's text: quotes, backslashes and both together.
const TRICKY = ["it's", 'back\\slash', "\\'", "x\\'); delete from project; -- ", "\\\\''\"", 'tab\tnew\nline'];

describe.skipIf(!hasMysql)('a MySQL/MariaDB server whose sql_mode holds NO_BACKSLASH_ESCAPES', () => {
  it('stores and reads back values with quotes and backslashes exactly, and nothing else runs', async () => {
    const admin = await createConnection({ uri: readTestEnvironment().mysqlUrl });
    const [[saved]] = (await admin.query('select @@global.sql_mode as mode')) as unknown as [[{ mode: string }]];
    const database = await createTestDatabase('mysql');
    try {
      // New connections start in the global mode: the server's administrator chose it.
      await admin.query("set global sql_mode = concat_ws(',', nullif(@@global.sql_mode, ''), 'NO_BACKSLASH_ESCAPES')");
      const probe = await createConnection({ uri: database.url });
      const [[fresh]] = (await probe.query('select @@session.sql_mode as mode')) as unknown as [[{ mode: string }]];
      await probe.end();
      expect(fresh.mode).toContain('NO_BACKSLASH_ESCAPES');

      const config = loadConfig({ data_dir: dataDir, db_dialect: 'mysql', db_url: database.url }, {});
      const { connection } = await openMigratedStore(config);
      try {
        const { db } = connection;
        const session = await sql<{ mode: string }>`select @@session.sql_mode as mode`.execute(db);
        expect(session.rows[0]?.mode).not.toContain('NO_BACKSLASH_ESCAPES');
        const created = new Date().toISOString().slice(0, 19).replace('T', ' ');
        for (const name of TRICKY)
          await db.insertInto('project').values({ name, created, type: '', alert: 0, max_parallel_tasks: 0 }).execute();
        const names = await db.selectFrom('project').select('name').orderBy('id').execute();
        expect(names.map((row) => row.name)).toEqual(TRICKY);
      } finally {
        await connection.db.destroy();
      }
    } finally {
      await admin.query('set global sql_mode = ?', [saved.mode]);
      await admin.end();
      await database.drop();
    }
  }, 60_000);
});
