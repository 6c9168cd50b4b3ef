import { sql, type Kysely } from 'kysely';
import type { GantryMigration } from '../schema.ts';

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
async function addWorkflowTarget(db: Kysely<unknown>, dialect: string, table: 'schedule' | 'integration') {
  await db.schema
    .alterTable(table)
    .addColumn('workflow_id', 'integer', (c) => c.references('workflow.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex(`${table}_workflow_idx`).on(table).column('workflow_id').execute();
  if (dialect === 'postgres')
    await sql`alter table ${sql.table(table)} alter column template_id drop not null`.execute(db);
  else if (dialect === 'mysql') await sql`alter table ${sql.table(table)} modify template_id integer null`.execute(db);
  else await dropNotNullOnSqlite(db, table, 'template_id');
}

export const workflowRunOrigins: GantryMigration = {
  name: '0022-workflow-run-origins',
  async up(db, h) {
    // A retry is a new run of the same revision: it names the run it retries, once.
    await db.schema.alterTable('workflow_run').addColumn('retry_of', 'integer').execute();
    await db.schema.createIndex('workflow_run_retry_of_key').on('workflow_run').column('retry_of').unique().execute();
    // What started a run when no user did (a schedule, an integration); both null for a user's run.
    await db.schema.alterTable('workflow_run').addColumn('schedule_id', 'integer').execute();
    await db.schema.alterTable('workflow_run').addColumn('integration_id', 'integer').execute();
    // The task history names the run of each task: a task's step is found from the task.
    await db.schema.createIndex('workflow_step_run_task_idx').on('workflow_step_run').column('task_id').execute();
    await addWorkflowTarget(db, h.dialect, 'schedule');
    await addWorkflowTarget(db, h.dialect, 'integration');
  },
};
