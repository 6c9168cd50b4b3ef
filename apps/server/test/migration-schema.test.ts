import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/connect.ts';
import type { Dialect } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createTestDatabase, listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

/** The migrator's own bookkeeping is Kysely's, not the schema the migrations write. */
const isMigratorTable = (name: string) => name.startsWith('gantry_migration');

async function rowsOf<Row>(db: Kysely<unknown>, query: ReturnType<typeof sql<Row>>): Promise<Row[]> {
  return (await query.execute(db)).rows;
}

/** Every object of a SQLite store as the store keeps it: the statement that made it, as it stands now. */
async function dumpSqlite(db: Kysely<unknown>): Promise<string[]> {
  const objects = await rowsOf(
    db,
    sql<{ type: string; name: string; sql: string | null }>`select type, name, sql from sqlite_master`,
  );
  return objects
    .filter((o) => !isMigratorTable(o.name))
    .map((o) => `${o.type} ${o.name}\n${o.sql ?? '(no sql)'}`)
    .sort();
}

/** A PostgreSQL store from its catalog: columns in order with types, nullability and defaults; constraints,
 * indexes, triggers, functions and sequences by their definitions. */
async function dumpPostgres(db: Kysely<unknown>): Promise<string[]> {
  const columns = await rowsOf(
    db,
    sql<{ table: string; attnum: number; column: string; type: string; not_null: boolean; default: string | null }>`
      select c.relname as table, a.attnum, a.attname as column, format_type(a.atttypid, a.atttypmod) as type,
        a.attnotnull as not_null, pg_get_expr(d.adbin, d.adrelid) as default
      from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`,
  );
  const definitions = await rowsOf(
    db,
    sql<{ kind: string; table: string; name: string; definition: string }>`
      select 'constraint' as kind, conrelid::regclass::text as table, conname as name,
        pg_get_constraintdef(oid) as definition
      from pg_constraint where connamespace = 'public'::regnamespace
      union all
      select 'index', tablename, indexname, indexdef from pg_indexes where schemaname = 'public'
      union all
      select 'trigger', tgrelid::regclass::text, tgname, pg_get_triggerdef(oid) from pg_trigger where not tgisinternal
      union all
      select 'function', '', proname, pg_get_functiondef(oid) from pg_proc where pronamespace = 'public'::regnamespace
      union all
      select 'sequence', '', sequencename, data_type::text || ' start ' || start_value || ' by ' || increment_by
      from pg_sequences where schemaname = 'public'`,
  );
  const tables = new Map<string, string[]>();
  for (const c of columns.filter((c) => !isMigratorTable(c.table)).sort((a, b) => a.attnum - b.attnum)) {
    const line = `${c.attnum} ${c.column} ${c.type}${c.not_null ? ' not null' : ''}${c.default === null ? '' : ` default ${c.default}`}`;
    tables.set(c.table, [...(tables.get(c.table) ?? []), line]);
  }
  return [
    ...[...tables].map(([table, lines]) => `table ${table}\n${lines.join('\n')}`),
    ...definitions
      .filter((d) => !isMigratorTable(d.table) && !isMigratorTable(d.name))
      .map((d) => `${d.kind} ${d.table ? `${d.table} ` : ''}${d.name}\n${d.definition}`),
  ].sort();
}

/** A MySQL/MariaDB store as it describes its own tables and triggers. */
async function dumpMysql(db: Kysely<unknown>): Promise<string[]> {
  const tables = await rowsOf(
    db,
    sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = database()`,
  );
  const dumps: string[] = [];
  for (const { name } of tables.filter((t) => !isMigratorTable(t.name))) {
    const [created] = await rowsOf(db, sql<{ 'Create Table': string }>`show create table ${sql.table(name)}`);
    dumps.push(`table ${name}\n${created?.['Create Table'] ?? '(none)'}`);
  }
  const triggers = await rowsOf(
    db,
    sql<{ name: string; table: string; timing: string; event: string; action: string }>`
      select trigger_name as name, event_object_table as ${sql.ref('table')}, action_timing as timing,
        event_manipulation as event, action_statement as action
      from information_schema.triggers where trigger_schema = database()`,
  );
  for (const t of triggers) dumps.push(`trigger ${t.table} ${t.name} ${t.timing} ${t.event}\n${t.action}`);
  return dumps.sort();
}

const DUMPS: Record<Dialect, (db: Kysely<unknown>) => Promise<string[]>> = {
  sqlite: dumpSqlite,
  postgres: dumpPostgres,
  mysql: dumpMysql,
};

// A migration, once shipped, must keep writing the same schema: installed stores have applied it by its name
// and will not run it again. A new migration changes the snapshot on purpose: `npx vitest run -u` this file.
describe.each(dialects)('the schema the migrations give a fresh %s store', (dialect) => {
  it('is the recorded one, table by table, column by column, key by key', async () => {
    const database = await createTestDatabase(dialect);
    const { db } = connectDatabase(dialect, database.url, { maxConnections: 1 });
    try {
      await migrateToLatest(db, dialect);
      const dump = (await DUMPS[dialect](db as unknown as Kysely<unknown>)).join('\n\n');
      await expect(`${dump}\n`).toMatchFileSnapshot(`schema-snapshots/${dialect}.txt`);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
