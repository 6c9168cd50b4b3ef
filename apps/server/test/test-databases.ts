import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { readTestEnvironment } from '../src/config.ts';
import type { Dialect } from '../src/db/database.ts';

export interface TestDatabase {
  dialect: Dialect;
  url: string;
  drop(): Promise<void>;
}

const testEnv = readTestEnvironment();

async function isReachable(dialect: Dialect): Promise<boolean> {
  try {
    if (dialect === 'postgres') {
      const client = new pg.Client({ connectionString: testEnv.postgresUrl, connectionTimeoutMillis: 3000 });
      await client.connect();
      await client.end();
    } else if (dialect === 'mysql') {
      const connection = await createConnection({ uri: testEnv.mysqlUrl, connectTimeout: 3000 });
      await connection.end();
    }
    return true;
  } catch {
    return false;
  }
}

const ALL_DIALECTS: Dialect[] = ['sqlite', 'postgres', 'mysql'];

/**
 * The dialects this run tests. A server that cannot be reached is skipped with a message on a
 * developer's machine, and fails the run under CI, where all three must be covered.
 */
export async function listTestDialects(): Promise<Dialect[]> {
  const wanted = ALL_DIALECTS.filter((d) => !testEnv.dialects || testEnv.dialects.includes(d));
  const available: Dialect[] = [];
  for (const dialect of wanted) {
    if (await isReachable(dialect)) {
      available.push(dialect);
      continue;
    }
    const message = `${dialect} is not reachable (${dialect === 'postgres' ? testEnv.postgresUrl : testEnv.mysqlUrl})`;
    if (testEnv.ci) throw new Error(`${message}: CI must run the database tests on every dialect`);
    console.warn(`Skipping ${dialect} database tests: ${message}`);
  }
  return available;
}

/** The Redis that tests of several nodes share. */
export const TEST_REDIS_URL = testEnv.redisUrl;

function isRedisReachable(): Promise<boolean> {
  const { hostname, port } = new URL(TEST_REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname, () => {
      socket.end();
      resolve(true);
    });
    socket.setTimeout(3000, () => resolve(false));
    socket.on('error', () => resolve(false));
  });
}

/**
 * The dialects a test of several nodes sharing Redis runs on: those of listTestDialects, or none when
 * Redis does not answer (skipped with a message on a developer's machine, a failure under CI).
 */
export async function listClusterDialects(): Promise<Dialect[]> {
  if (await isRedisReachable()) return listTestDialects();
  const message = `Redis is not reachable at ${TEST_REDIS_URL}`;
  if (testEnv.ci) throw new Error(`${message}: CI must run the cluster tests`);
  console.warn(`Skipping cluster tests: ${message}`);
  return [];
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** A fresh, empty database of the dialect, dropped again by `drop()`. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const name = `gantry_t_${randomBytes(6).toString('hex')}`;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-test-'));
    return {
      dialect,
      url: path.join(dir, 'test.sqlite'),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (dialect === 'postgres') {
    const admin = new pg.Client({ connectionString: testEnv.postgresUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    return {
      dialect,
      url: withDatabase(testEnv.postgresUrl, name),
      drop: async () => {
        const client = new pg.Client({ connectionString: testEnv.postgresUrl });
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      },
    };
  }
  const admin = await createConnection({ uri: testEnv.mysqlUrl });
  await admin.query(`create database ${name} character set utf8mb4 collate utf8mb4_bin`);
  await admin.end();
  return {
    dialect,
    url: withDatabase(testEnv.mysqlUrl, name),
    drop: async () => {
      const connection = await createConnection({ uri: testEnv.mysqlUrl });
      await connection.query(`drop database if exists ${name}`);
      await connection.end();
    },
  };
}

/**
 * What a server process started by a test needs to run on `database` (encrypting its secrets with a key of its
 * own) with `admin` as its first administrator, who signs in with `adminPassword`.
 */
export function serverStoreEnvironment(database: TestDatabase, adminPassword: string): Record<string, string> {
  return {
    GANTRY_DB_DIALECT: database.dialect,
    GANTRY_DB_URL: database.url,
    GANTRY_ACCESS_KEY_ENCRYPTION: randomBytes(32).toString('base64'),
    GANTRY_ADMIN_LOGIN: 'admin',
    GANTRY_ADMIN_PASSWORD: adminPassword,
  };
}
