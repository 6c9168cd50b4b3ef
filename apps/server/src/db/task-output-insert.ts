import { CompiledQuery, sql } from 'kysely';
import { loadMysql } from './connect.ts';
import { CopyInData, copyChunks, copyText, pgText } from './postgres-copy.ts';
import { LOAD_DATA_FORMAT, LoadDataInput, isLoadDataRefused, loadDataText } from './mysql-load-data.ts';
import type { Db, Dialect } from './database.ts';
import type { TaskOutputRow } from '../modules/tasks/tasks.table.ts';

/**
 * Rows per statement, and text per statement: a statement must stay below MySQL's packet limit
 * (16 MiB by default) however long the lines are. MariaDB stored most rows per second with
 * 5,000-row statements (500: 112k/s, 1,000: 122k/s, 2,000: 176k/s, 5,000: 202k/s, 10,000: 182k/s
 * on the shared 2-core machine), when it does not take LOAD DATA; SQLite's limit on bound variables
 * (32,766) allows 8,000 rows of four.
 */
const ROWS_PER_STATEMENT: Record<Exclude<Dialect, 'postgres'>, number> = { sqlite: 1000, mysql: 5000 };
const TEXT_PER_STATEMENT = 4 * 1024 * 1024;

function* chunksOf(rows: TaskOutputRow[], maxRows: number): Generator<TaskOutputRow[]> {
  let start = 0;
  let text = 0;
  for (let i = 0; i < rows.length; i++) {
    text += (rows[i]?.output.length ?? 0) + 64;
    if (i - start + 1 >= maxRows || text >= TEXT_PER_STATEMENT) {
      yield rows.slice(start, i + 1);
      start = i + 1;
      text = 0;
    }
  }
  if (start < rows.length) yield rows.slice(start);
}

/**
 * Inserts log lines in as few statements as each store takes well: PostgreSQL gets them all in one
 * COPY (its fastest way in: no statement to parse or plan, no parameters to encode), MySQL/MariaDB one
 * LOAD DATA (1.5 times the rows per second of multi-row inserts; multi-row inserts where the server
 * has `local_infile` off), SQLite multi-row VALUES lists.
 */
export async function insertTaskOutputRows(db: Db, dialect: Dialect, rows: TaskOutputRow[]): Promise<void> {
  if (rows.length === 0) return;
  if (dialect === 'postgres') {
    const data = new CopyInData(
      copyChunks(rows, (r) => `${r.task_id}\t${r.seq}\t${copyText(r.time)}\t${copyText(r.output)}\n`),
    );
    await db.executeQuery(CompiledQuery.raw('copy task_output (task_id, seq, time, output) from stdin', [data]));
    return;
  }
  if (dialect === 'mysql' && !loadDataRefused) {
    try {
      await loadRows(db, rows);
      return;
    } catch (error) {
      if (!isLoadDataRefused(error)) throw error;
      // Refused before any row was read, so the transaction is as it was: the same rows go as inserts.
      loadDataRefused = true;
    }
  }
  for (const chunk of chunksOf(rows, ROWS_PER_STATEMENT[dialect]))
    if (dialect === 'mysql') await sql.raw(mysqlInsert(chunk)).execute(db);
    else await db.insertInto('task_output').values(chunk).execute();
}

/**
 * A batch this small (lines, and characters in all) goes to PostgreSQL in one statement with the task's new
 * line count: one round trip instead of four (begin, the count, the COPY, commit), which is what a running
 * task's batches of a few lines cost most. Larger batches go by COPY in a transaction, which stores more rows
 * a second and streams long text in pieces.
 */
const ONE_STATEMENT_ROWS = 200;
const ONE_STATEMENT_TEXT = 256 * 1024;

/** Whether a PostgreSQL batch is small enough for `storeCountedLines`. */
export function fitsOneStatement(rows: readonly TaskOutputRow[]): boolean {
  if (rows.length > ONE_STATEMENT_ROWS) return false;
  let text = 0;
  for (const row of rows) text += row.output.length;
  return text <= ONE_STATEMENT_TEXT;
}

/**
 * PostgreSQL: sets the task's line count to `nextSeq` and stores the lines, in one statement. The update
 * locks the task's row first and the lines are stored only if it found the task, so a task deleted
 * meanwhile gets none (PostgreSQL has no foreign key to refuse them) and one deleted later takes them with it.
 */
export async function storeCountedLines(db: Db, taskId: number, rows: TaskOutputRow[], nextSeq: number): Promise<void> {
  await sql`
    with counted as (update task set output_lines = ${nextSeq} where id = ${taskId} returning id)
    insert into task_output (task_id, seq, time, output)
    select counted.id, u.seq, u.time, u.output
    from counted, unnest(${rows.map((r) => r.seq)}::int[], ${rows.map((r) => r.time)}::text[], ${rows.map((r) =>
      pgText(r.output),
    )}::text[]) as u(seq, time, output)`.execute(db);
}

/** Set once a MySQL server refused LOAD DATA LOCAL (its `local_infile` is off): inserts from then on. */
let loadDataRefused = false;

/**
 * Loads the rows with LOAD DATA LOCAL. With LOCAL, the server skips a row whose key is taken instead
 * of failing (it cannot stop the client's stream halfway): a count short of the rows fails the load
 * here, as the insert's duplicate key would, so the caller's transaction rolls back.
 */
async function loadRows(db: Db, rows: TaskOutputRow[]): Promise<void> {
  const data = new LoadDataInput(
    copyChunks(rows, (r) => `${r.task_id}\t${r.seq}\t${loadDataText(r.time)}\t${loadDataText(r.output)}\n`),
  );
  const result = await db.executeQuery(
    CompiledQuery.raw(
      `load data local infile 'task_output' into table task_output ${LOAD_DATA_FORMAT} (task_id, seq, time, output)`,
      [data],
    ),
  );
  const loaded = Number(result.numAffectedRows ?? 0);
  if (loaded !== rows.length)
    throw new Error(`Stored ${loaded} of ${rows.length} log lines: a line number of the task is already taken`);
}

/**
 * A MySQL insert of rows as one text, escaped by the driver's own escape (the one it applies to bound
 * parameters, which it too inlines into the text): half the work of building the same statement
 * through the query builder, which numbers and then substitutes four parameters per row.
 */
function mysqlInsert(rows: TaskOutputRow[]): string {
  const { escape } = loadMysql();
  let text = 'insert into task_output (task_id, seq, time, output) values ';
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as TaskOutputRow;
    text += `${i === 0 ? '' : ','}(${Number(r.task_id)},${Number(r.seq)},${escape(r.time)},${escape(r.output)})`;
  }
  return text;
}
