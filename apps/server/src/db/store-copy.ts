import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import { connectDatabase, type DbConnection } from './connect.ts';
import type { Database, Db, Dialect } from './database.ts';
import { listExecutedMigrations, listKnownMigrations, migrateToLatest } from './migrate.ts';
import { storeUnavailable } from './store-unavailable.ts';

/** A copy that cannot go ahead: the message says why, in one line. */
export class StoreCopyError extends Error {}

type Table = keyof Database;

interface CopiedTable {
  table: Table;
  /** The primary key, used to read the source in order and in pages. */
  key: string;
  /** The key's second column, where it has two. */
  then?: string;
  /** Columns that may name a later row of the same table: written once every row exists. */
  deferred?: string[];
  /** Rows the migrations seed (the built-in apps): the source's replace them. */
  seeded?: boolean;
}

/** Every table, parents before children, so foreign keys hold at each insert. */
export const COPIED_TABLES: readonly CopiedTable[] = [
  { table: 'users', key: 'id' },
  { table: 'session', key: 'id' },
  { table: 'api_token', key: 'id' },
  { table: 'login_attempt', key: 'id' },
  { table: 'user_totp', key: 'id' },
  { table: 'project', key: 'id' },
  { table: 'project_user', key: 'id' },
  { table: 'event', key: 'id' },
  { table: 'access_key', key: 'id' },
  { table: 'repository', key: 'id' },
  { table: 'environment', key: 'id' },
  { table: 'environment_secret', key: 'id' },
  { table: 'view', key: 'id' },
  { table: 'template', key: 'id', deferred: ['build_template_id'] },
  { table: 'inventory', key: 'id' },
  { table: 'template_vault', key: 'id' },
  { table: 'app', key: 'id', seeded: true },
  { table: 'schedule', key: 'id' },
  { table: 'integration', key: 'id' },
  { table: 'integration_alias', key: 'id' },
  { table: 'integration_extract_value', key: 'id' },
  { table: 'integration_matcher', key: 'id' },
  { table: 'runner', key: 'id' },
  { table: 'task', key: 'id' },
  { table: 'task_output', key: 'task_id', then: 'seq' },
  { table: 'task_stat_day', key: 'id' },
  { table: 'task_host', key: 'id' },
  { table: 'task_host_result', key: 'id' },
  { table: 'task_plan', key: 'task_id' },
  { table: 'task_output_value', key: 'id' },
  { table: 'terraform_alias', key: 'id' },
  { table: 'terraform_state', key: 'id' },
  { table: 'terraform_lock', key: 'inventory_id' },
  { table: 'workflow', key: 'id' },
  { table: 'workflow_revision', key: 'id' },
  { table: 'workflow_template', key: 'id' },
  { table: 'workflow_resource', key: 'id' },
  { table: 'workflow_run', key: 'id' },
  { table: 'workflow_run_stat_day', key: 'id' },
  { table: 'workflow_step_run', key: 'id' },
  { table: 'workflow_approval', key: 'id' },
  { table: 'task_approval', key: 'id' },
];

/**
 * Tables that describe one running installation rather than its data: the target keeps its own
 * cluster identity (two installations must never share a Redis channel) and has no live nodes yet.
 */
export const INSTALLATION_TABLES: readonly Table[] = ['cluster', 'server_node'];

/**
 * The search index across task logs (migration 0020; SQLite's FTS5 table and its shadow tables): not copied,
 * the target's indexer builds it again from the copied logs.
 */
export const DERIVED_TABLES: readonly string[] = [
  'task_log_fts',
  'task_log_fts_config',
  'task_log_fts_data',
  'task_log_fts_docsize',
  'task_log_fts_idx',
  'task_log_index',
];

/** Rows read from the source at a time. */
const PAGE_ROWS = 2000;
/** Bind parameters per insert statement, under the smallest limit of the three databases (SQLite's 32,766). */
const MAX_PARAMETERS = 30_000;

export interface StoreLocation {
  dialect: Dialect;
  url: string;
}

/** A PostgreSQL or MySQL/MariaDB URL by its scheme; anything else is a SQLite file. */
export function locateStore(location: string): StoreLocation {
  if (/^postgres(ql)?:\/\//i.test(location)) return { dialect: 'postgres', url: location };
  if (/^(mysql|mariadb):\/\//i.test(location))
    return { dialect: 'mysql', url: location.replace(/^mariadb:/i, 'mysql:') };
  return { dialect: 'sqlite', url: location };
}

async function open(location: StoreLocation): Promise<DbConnection> {
  try {
    const connection = connectDatabase(location.dialect, location.url);
    await sql`select 1`.execute(connection.db);
    return connection;
  } catch (error) {
    throw storeUnavailable(location.dialect, location.url, error);
  }
}

async function countRows(db: Db, table: Table): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function assertSourceUpToDate(source: DbConnection): Promise<void> {
  const executed = await listExecutedMigrations(source.db).catch(() => {
    throw new StoreCopyError('The source is not a Gantry store: it has no migration records');
  });
  const known = listKnownMigrations();
  const unknown = executed.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new StoreCopyError(
      `The source store was written by a newer Gantry (migration ${unknown[0]}): copy it with that version`,
    );
  const pending = known.filter((name) => !executed.includes(name));
  if (pending.length > 0)
    throw new StoreCopyError(
      `The source store is not up to date (${pending.length} migration(s) pending): run gantry migrate on it first`,
    );
}

async function assertTargetEmpty(target: DbConnection): Promise<void> {
  for (const { table, seeded } of COPIED_TABLES) {
    if (seeded) continue;
    const count = await countRows(target.db, table);
    if (count > 0)
      throw new StoreCopyError(
        `The target store is not empty (table ${table} has ${count} row(s)): copy into an empty database`,
      );
  }
}

/** A page of a table's rows in key order, after the row `after` (from the start without it). */
function readPage(source: Db, { table, key, then }: CopiedTable, after: Record<string, unknown> | undefined) {
  let query = source
    .selectFrom(table)
    .selectAll()
    .orderBy(key as never)
    .limit(PAGE_ROWS);
  if (then) query = query.orderBy(then as never);
  if (after)
    query = query.where((eb) => {
      const past = eb(key as never, '>', after[key] as never);
      if (!then) return past;
      return eb.or([
        past,
        eb.and([eb(key as never, '=', after[key] as never), eb(then as never, '>', after[then] as never)]),
      ]);
    });
  return query.execute() as Promise<Record<string, unknown>[]>;
}

async function copyTable(source: Db, target: Db, entry: CopiedTable): Promise<number> {
  const { table, key, deferred = [], seeded } = entry;
  if (seeded) await target.deleteFrom(table).execute();
  const later: { key: unknown; values: Record<string, unknown> }[] = [];
  let copied = 0;
  let after: Record<string, unknown> | undefined = undefined;
  for (;;) {
    const rows = await readPage(source, entry, after);
    if (rows.length === 0) break;
    const columns = Object.keys(rows[0] ?? {}).length || 1;
    const chunk = Math.max(1, Math.floor(MAX_PARAMETERS / columns));
    const prepared = rows.map((row) => {
      const values = Object.fromEntries(
        deferred
          .filter((column) => row[column] !== null && row[column] !== undefined)
          .map((column) => [column, row[column]]),
      );
      if (Object.keys(values).length > 0) later.push({ key: row[key], values });
      return { ...row, ...Object.fromEntries(deferred.map((column) => [column, null])) };
    });
    for (let i = 0; i < prepared.length; i += chunk) {
      await target
        .insertInto(table)
        .values(prepared.slice(i, i + chunk) as never)
        .execute();
    }
    copied += rows.length;
    after = rows[rows.length - 1];
  }
  for (const { key: id, values } of later) {
    await target
      .updateTable(table)
      .set(values as never)
      .where(key as never, '=', id as never)
      .execute();
  }
  return copied;
}

/** PostgreSQL's serial counters do not move on inserts with explicit ids: set each past the copied rows. */
async function advanceSequences(target: DbConnection): Promise<void> {
  if (target.dialect !== 'postgres') return;
  for (const { table, key } of COPIED_TABLES) {
    if (key !== 'id' || table === 'app') continue;
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(
      target.db,
    );
  }
}

/**
 * Copies a whole installation (users, projects, every resource, tasks and their logs, encrypted
 * secrets as they are) from one store to an empty one of any dialect, in one transaction on the
 * target: it ends complete or leaves the target without data.
 */
export async function copyStore(from: StoreLocation, to: StoreLocation, report: (line: string) => void): Promise<void> {
  if (from.dialect === to.dialect && from.url === to.url)
    throw new StoreCopyError('The source and the target are the same store');
  if (from.dialect === 'sqlite' && !existsSync(from.url))
    throw new StoreCopyError(`The source SQLite file ${from.url} does not exist`);
  const source = await open(from);
  let target: DbConnection | undefined;
  try {
    await assertSourceUpToDate(source);
    target = await open(to);
    await migrateToLatest(target.db, target.dialect);
    await assertTargetEmpty(target);
    const writable = target;
    await writable.db.transaction().execute(async (trx) => {
      for (const entry of COPIED_TABLES) report(`${entry.table}: ${await copyTable(source.db, trx, entry)} row(s)`);
      // No log is in the target's search index yet: its indexer adds them all.
      await trx.updateTable('task').set({ log_indexed: 0 }).execute();
      await advanceSequences({ db: trx, dialect: writable.dialect });
    });
    report(
      'The copy is complete. Start Gantry on the target with the same encryption key (gantry.key or GANTRY_ACCESS_KEY_ENCRYPTION).',
    );
  } finally {
    await source.db.destroy();
    await target?.db.destroy();
  }
}
