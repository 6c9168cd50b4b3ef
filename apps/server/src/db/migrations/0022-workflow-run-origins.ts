import { sql, type Kysely } from 'kysely';
import { defineMigration, integer, nullable, references, type SchemaHelpers } from '../schema.ts';

/**
 * SQLite cannot drop a NOT NULL: the table is rebuilt from its own definition with the constraint
 * left out, its rows, indexes and id counter kept. Foreign keys are off meanwhile (SQLite runs
 * migrations outside a transaction, so the pragma takes effect), or dropping the old table would
 * cascade to the rows that refer to it.
 */
async function dropNotNullOnSqlite(db: Kysely<unknown>, table: string, column: string): Promise<void> {
  const { rows } = await sql<{ type: string; sql: string | null }>`
    select type, sql from sqlite_master where tbl_name = ${table} and type in ('table', 'index')`.execute(db);
  const definition = rows.find((r) => r.type === 'table')?.sql ?? '';
  const relaxed = definition
    .replace(`"${column}" integer not null`, `"${column}" integer`)
    .replace(new RegExp(`^create table "${table}"`, 'i'), `create table "${table}_rebuilt"`);
  if (relaxed === definition || !relaxed.includes(`"${table}_rebuilt"`))
    throw new Error(`Unexpected definition of ${table}: ${definition}`);
  const counter = await sql<{ seq: number }>`select seq from sqlite_sequence where name = ${table}`.execute(db);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(relaxed).execute(trx);
      await sql`insert into ${sql.table(`${table}_rebuilt`)} select * from ${sql.table(table)}`.execute(trx);
      await sql`drop table ${sql.table(table)}`.execute(trx);
      await sql`alter table ${sql.table(`${table}_rebuilt`)} rename to ${sql.table(table)}`.execute(trx);
      for (const index of rows) if (index.type === 'index' && index.sql) await sql.raw(index.sql).execute(trx);
      const seq = counter.rows[0]?.seq;
      if (seq !== undefined)
        await sql`update sqlite_sequence set seq = max(seq, ${seq}) where name = ${table}`.execute(trx);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

/** Schedules and integrations may start a workflow instead of a template: their template becomes optional. */
async function addWorkflowTarget(db: Kysely<unknown>, h: SchemaHelpers, table: 'schedule' | 'integration') {
  await h.addColumns(table, { workflow_id: nullable(references('workflow', 'cascade')) });
  await h.createIndexes(table, { [`${table}_workflow_idx`]: ['workflow_id'] });
  if (h.dialect === 'postgres')
    await sql`alter table ${sql.table(table)} alter column template_id drop not null`.execute(db);
  else if (h.dialect === 'mysql')
    await sql`alter table ${sql.table(table)} modify template_id integer null`.execute(db);
  else await dropNotNullOnSqlite(db, table, 'template_id');
}

export const workflowRunOrigins = defineMigration('0022-workflow-run-origins', async (db, h) => {
  // A retry is a new run of the same revision: it names the run it retries, once.
  await h.addColumns('workflow_run', { retry_of: nullable(integer()) });
  await h.createUniqueIndexes('workflow_run', { workflow_run_retry_of_key: ['retry_of'] });
  // What started a run when no user did (a schedule, an integration); both null for a user's run.
  await h.addColumns('workflow_run', { schedule_id: nullable(integer()), integration_id: nullable(integer()) });
  // The task history names the run of each task: a task's step is found from the task.
  await h.createIndexes('workflow_step_run', { workflow_step_run_task_idx: ['task_id'] });
  await addWorkflowTarget(db, h, 'schedule');
  await addWorkflowTarget(db, h, 'integration');
});
