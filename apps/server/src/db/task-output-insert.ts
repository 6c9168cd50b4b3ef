import { sql } from 'kysely';
import type { Db, Dialect } from './database.ts';
import type { TaskOutputRow } from '../modules/tasks/tasks.table.ts';

type OutputRow = Omit<TaskOutputRow, 'id'>;

/**
 * Rows per statement, and text per statement: a statement must stay below MySQL's packet limit
 * (16 MiB by default) however long the lines are. MariaDB stored most rows per second with
 * 5,000-row statements (500: 112k/s, 1,000: 122k/s, 2,000: 176k/s, 5,000: 202k/s, 10,000: 182k/s
 * on the shared 2-core machine); SQLite's limit on bound variables (32,766) allows 8,000 rows of four.
 */
const ROWS_PER_STATEMENT: Record<Dialect, number> = { sqlite: 1000, postgres: 20_000, mysql: 5000 };
const TEXT_PER_STATEMENT = 4 * 1024 * 1024;

function* chunksOf(rows: OutputRow[], maxRows: number): Generator<OutputRow[]> {
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
 * Inserts log lines in as few statements as each store takes well. PostgreSQL gets four arrays
 * unnested into rows: four parameters instead of four per row, so neither the driver nor the
 * planner handles tens of thousands of parameters (about twice the rows per second of 1,000-row
 * VALUES lists here); the others get multi-row VALUES lists.
 */
export async function insertTaskOutputRows(db: Db, dialect: Dialect, rows: OutputRow[]): Promise<void> {
  for (const chunk of chunksOf(rows, ROWS_PER_STATEMENT[dialect])) {
    if (dialect === 'postgres') {
      await sql`insert into task_output (task_id, seq, time, output)
        select * from unnest(${chunk.map((r) => r.task_id)}::integer[], ${chunk.map((r) => r.seq)}::integer[], ${chunk.map((r) => r.time)}::text[], ${chunk.map((r) => r.output)}::text[])`.execute(
        db,
      );
    } else await db.insertInto('task_output').values(chunk).execute();
  }
}
