import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import type { Dialect } from '../src/db/database.ts';
import { openMigratedStore } from '../src/runtime.ts';
import { createTestDatabase, listTestDialects } from './test-databases.ts';

const pooled = (await listTestDialects()).filter((d): d is Exclude<Dialect, 'sqlite'> => d !== 'sqlite');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-pool-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const backendQuery = {
  postgres: sql<{ backend: number }>`select pg_backend_pid() as backend, pg_sleep(0.2) as slept`,
  mysql: sql<{ backend: number }>`select connection_id() as backend, sleep(0.2) as slept`,
};

describe('db_max_connections', () => {
  it('defaults to 10 and refuses 0 with a clear message', () => {
    expect(loadConfig({ data_dir: dataDir }, {}).db_max_connections).toBe(10);
    expect(() => loadConfig({ data_dir: dataDir }, { GANTRY_DB_MAX_CONNECTIONS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ data_dir: dataDir }, { GANTRY_DB_MAX_CONNECTIONS: 'many' })).toThrow(
      /db_max_connections/,
    );
  });

  describe.each(pooled)('%s', (dialect) => {
    it.each([3, 12])('opens at most %i connections for concurrent queries', async (max) => {
      const database = await createTestDatabase(dialect);
      const config = loadConfig(
        { data_dir: dataDir, db_dialect: dialect, db_url: database.url },
        { GANTRY_DB_MAX_CONNECTIONS: String(max) },
      );
      const { connection } = await openMigratedStore(config);
      try {
        const rows = await Promise.all(
          Array.from({ length: 15 }, () => backendQuery[dialect].execute(connection.db).then((r) => r.rows[0])),
        );
        expect(new Set(rows.map((r) => Number(r?.backend))).size).toBe(max);
      } finally {
        await connection.db.destroy();
        await database.drop();
      }
    });
  });
});
