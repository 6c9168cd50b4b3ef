import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, MysqlDialect, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import { loadOnDemand } from '../load-on-demand.ts';
import type { Database, Db, Dialect } from './database.ts';
import { enableLoadData } from './mysql-load-data.ts';
import { enableCopyIn } from './postgres-copy.ts';
import { isUniqueViolation } from './errors.ts';

// Only the configured dialect's driver is ever loaded.
const loadSqlite = loadOnDemand<typeof import('better-sqlite3')>('better-sqlite3');
const loadPostgres = loadOnDemand<typeof import('pg')>('pg');
export const loadMysql = loadOnDemand<typeof import('mysql2')>('mysql2');

export interface DbConnection {
  db: Db;
  dialect: Dialect;
}

export interface ConnectionOptions {
  /**
   * Told of every statement the store took (a transaction's begin and commit too): `failed` when it failed
   * for another reason than a duplicate key (which is an answer, not a failure).
   */
  onQuery?(result: 'answered' | 'failed'): void;
  /** Connections a PostgreSQL or MySQL pool opens at most (SQLite has one). */
  maxConnections?: number;
}

const DEFAULT_MAX_CONNECTIONS = 10;

/** Opens the store for the configured dialect. The SQLite file lives in WAL mode with foreign keys on. */
export function connectDatabase(dialect: Dialect, url: string, options: ConnectionOptions = {}): DbConnection {
  const onQuery = options.onQuery;
  const log = onQuery
    ? (event: LogEvent): void =>
        onQuery(event.level === 'error' && !isUniqueViolation(event.error) ? 'failed' : 'answered')
    : undefined;
  return {
    db: new Kysely<Database>({
      dialect: createDialect(dialect, url, options.maxConnections ?? DEFAULT_MAX_CONNECTIONS),
      ...(log ? { log } : {}),
    }),
    dialect,
  };
}

function createDialect(dialect: Dialect, url: string, maxConnections: number) {
  switch (dialect) {
    case 'sqlite': {
      if (url !== ':memory:') mkdirSync(path.dirname(url), { recursive: true, mode: 0o700 });
      makeSqliteFilesPrivate(url);
      const Sqlite = loadSqlite();
      const database = new Sqlite(url);
      database.pragma('journal_mode = WAL');
      makeSqliteFilesPrivate(url);
      database.pragma('foreign_keys = ON');
      database.pragma('busy_timeout = 5000');
      database.pragma('synchronous = NORMAL');
      return new SqliteDialect({ database: withStatementCache(database) });
    }
    case 'postgres': {
      const pg = loadPostgres();
      // int8 counts come back as strings by default; ours always fit a JS number.
      pg.types.setTypeParser(20, (v) => Number(v));
      const pool = new pg.Pool({ connectionString: url, max: maxConnections });
      // An idle connection the server closed (restart, failover) is dropped and replaced on the next
      // query; unhandled, its error event would bring the whole process down.
      pool.on('error', () => undefined);
      pool.on('connect', enableCopyIn);
      return new PostgresDialect({ pool });
    }
    case 'mysql': {
      const pool = loadMysql().createPool({
        uri: url,
        connectionLimit: maxConnections,
        supportBigNumbers: true,
        bigNumberStrings: false,
        timezone: 'Z',
      });
      pool.on('connection', enableLoadData);
      return new MysqlDialect({
        pool,
        onCreateConnection: (connection) => connection.executeQuery(KEEP_BACKSLASH_ESCAPES).then(() => undefined),
      });
    }
  }
}

/**
 * The MySQL driver writes parameters into the statement's text, quoting them with backslash escapes.
 * A server whose sql_mode holds NO_BACKSLASH_ESCAPES reads `\'` as a backslash and the end of the
 * string, so a quote in any value (a log line, a name) would end it early: each connection takes that
 * mode out of its own session before it runs anything else.
 */
const KEEP_BACKSLASH_ESCAPES = CompiledQuery.raw(
  "set session sql_mode = trim(both ',' from replace(concat(',', @@session.sql_mode, ','), ',NO_BACKSLASH_ESCAPES,', ','))",
);

/**
 * The store holds password hashes, sessions and encrypted secrets: only the server's user may read
 * it. SQLite gives its -wal and -shm files the database file's mode, so closing that one first
 * keeps the others closed too; files of an older installation are fixed on the way.
 */
function makeSqliteFilesPrivate(url: string): void {
  if (url === ':memory:' || url.startsWith('file:')) return;
  for (const file of [url, `${url}-wal`, `${url}-shm`, `${url}-journal`]) if (existsSync(file)) chmodSync(file, 0o600);
}

/**
 * better-sqlite3 compiles every statement it is given; the same few hundred queries repeat all day,
 * so compiled statements are kept (up to a bound) and reused.
 */
function withStatementCache(database: SQLite.Database, maxStatements = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string): SQLite.Statement {
      let statement = cache.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        if (cache.size >= maxStatements) cache.delete(cache.keys().next().value ?? '');
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}
