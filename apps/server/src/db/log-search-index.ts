import { sql, type RawBuilder } from 'kysely';
import type { Db, Dialect } from './database.ts';

/** A line as the search index holds it: its words, lower-cased and separated by single spaces. */
export interface IndexedLine {
  task_id: number;
  seq: number;
  words: string;
}

/** Rows per insert statement: three bound values each, well under SQLite's limit of 32,766. */
const ROWS_PER_STATEMENT = 1000;

/**
 * Adds lines to the search index of migration 0020: SQLite's FTS5 table keys a line by `task_id << 32 | seq`
 * (the rowid), PostgreSQL turns the words into a tsvector as it stores them, MariaDB indexes the words' text.
 */
export async function insertLogIndexRows(db: Db, dialect: Dialect, rows: readonly IndexedLine[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
    if (dialect === 'postgres') {
      // One statement however many rows: three array parameters instead of three parameters per row.
      await sql`
        insert into task_log_index (task_id, seq, words)
        select t, s, to_tsvector('simple', w)
        from unnest(${chunk.map((r) => r.task_id)}::int[], ${chunk.map((r) => r.seq)}::int[], ${chunk.map((r) => r.words)}::text[]) as u(t, s, w)`.execute(
        db,
      );
    } else if (dialect === 'sqlite') {
      const values = chunk.map((r) => sql`((${r.task_id} << 32) | ${r.seq}, ${r.words})`);
      await sql`insert into task_log_fts (rowid, words) values ${sql.join(values)}`.execute(db);
    } else {
      const values = chunk.map((r) => sql`(${r.task_id}, ${r.seq}, ${r.words})`);
      await sql`insert into task_log_index (task_id, seq, words) values ${sql.join(values)}`.execute(db);
    }
  }
}

/** Removes a task's index rows with `fromSeq <= seq < toSeq`: a long log goes in slices, like its lines. */
export async function deleteLogIndexRange(
  db: Db,
  dialect: Dialect,
  taskId: number,
  fromSeq: number,
  toSeq: number,
): Promise<void> {
  if (dialect === 'sqlite')
    await sql`delete from task_log_fts where rowid >= ((${taskId} << 32) | ${fromSeq}) and rowid < ((${taskId} << 32) | ${toSeq})`.execute(
      db,
    );
  else
    await sql`delete from task_log_index where task_id = ${taskId} and seq >= ${fromSeq} and seq < ${toSeq}`.execute(
      db,
    );
}

/** Removes the whole index of the given tasks. */
export async function deleteLogIndexOfTasks(db: Db, dialect: Dialect, taskIds: readonly number[]): Promise<void> {
  if (taskIds.length === 0) return;
  if (dialect === 'sqlite') {
    for (const id of taskIds)
      await sql`delete from task_log_fts where rowid >= (${id} << 32) and rowid < ((${id} + 1) << 32)`.execute(db);
    return;
  }
  await sql`delete from task_log_index where task_id in (${sql.join(taskIds)})`.execute(db);
}

/** Which lines a search looks at: those of tasks below an id (a page of tasks), or of one task. */
export type LogMatchScope = { belowTaskId: number | undefined } | { taskId: number };

/**
 * The lines of the index whose words hold `phrase` (lower-case words separated by single spaces, nothing
 * else: no quote or operator can reach the store's query syntax), as a table of (task_id, seq): at most
 * `limit` of them, the newest first for tasks below an id, in seq order for one task, so what a search reads
 * is bounded however many lines hold a common word. Every store matches whole words; SQLite and PostgreSQL
 * match the words as a phrase, MariaDB finds lines holding each word of three characters or more (its
 * FULLTEXT minimum) in order, so callers check the phrase on the text.
 */
export function selectLogMatches(
  dialect: Dialect,
  phrase: string,
  scope: LogMatchScope,
  limit: number,
): RawBuilder<{ task_id: number; seq: number }> {
  const oneTask = 'taskId' in scope;
  if (dialect === 'sqlite') {
    let range = sql``;
    if (oneTask) range = sql` and rowid >= (${scope.taskId} << 32) and rowid < ((${scope.taskId} + 1) << 32)`;
    else if (scope.belowTaskId !== undefined) range = sql` and rowid < (${scope.belowTaskId} << 32)`;
    // FTS5 walks its matches in rowid order either way, so the limit stops the walk: no sort of every match.
    const order = oneTask ? sql`rowid` : sql`rowid desc`;
    return sql`(select rowid >> 32 as task_id, rowid & 4294967295 as seq from task_log_fts where task_log_fts match ${`"${phrase}"`}${range} order by ${order} limit ${limit})`;
  }
  const order = oneTask ? sql`seq` : sql`task_id desc, seq desc`;
  if (dialect === 'mysql' && oneTask)
    // InnoDB would answer MATCH for every line of the store before keeping this task's: the task's own rows, in
    // seq order, compared as the phrase check does (words and phrase hold no LIKE wildcard), stop at the limit.
    return sql`(select task_id, seq from task_log_index where task_id = ${scope.taskId} and concat(' ', words, ' ') like ${`% ${phrase} %`} order by ${order} limit ${limit})`;
  let range = sql``;
  if (oneTask) range = sql` and task_id = ${scope.taskId}`;
  else if (scope.belowTaskId !== undefined) range = sql` and task_id < ${scope.belowTaskId}`;
  if (dialect === 'postgres')
    return sql`(select task_id, seq from task_log_index where words @@ phraseto_tsquery('simple', ${phrase})${range} order by ${order} limit ${limit})`;
  return sql`(select task_id, seq from task_log_index where match (words) against (${`+"${phrase}"`} in boolean mode)${range} order by ${order} limit ${limit})`;
}

/**
 * About how many lines of the index hold the rarest of `words` (whole words, lower-case, nothing else): the
 * share of the newest `sample` index rows that hold it, times the rows the store says the index has. This is
 * what PostgreSQL's GIN and MariaDB's FULLTEXT index read to answer the phrase, newest first or not: neither
 * can stop at a limit, so a search asks this first (a bounded read of the primary key's newest end). Undefined
 * on SQLite, whose FTS5 walks its matches newest first and stops at the limit however many there are.
 */
export async function estimateWordLines(
  db: Db,
  dialect: Dialect,
  words: readonly string[],
  sample: number,
): Promise<number | undefined> {
  if (dialect === 'sqlite' || words.length === 0) return undefined;
  const holds = (word: string) =>
    dialect === 'postgres'
      ? sql`words @@ plainto_tsquery('simple', ${word})`
      : sql`concat(' ', words, ' ') like ${`% ${word} %`}`;
  const counts = words.map((word, i) => sql`sum(case when ${holds(word)} then 1 else 0 end) as ${sql.ref(`h${i}`)}`);
  const { rows } = await sql<Record<string, unknown>>`
    select count(*) as sampled, ${sql.join(counts)}
    from (select words from task_log_index order by task_id desc, seq desc limit ${sample}) s`.execute(db);
  const row = rows[0] ?? {};
  const sampled = Number(row['sampled'] ?? 0);
  if (sampled === 0) return 0;
  const fewest = Math.min(...words.map((_, i) => Number(row[`h${i}`] ?? 0)));
  // The store's own row count estimate (kept by ANALYZE and autovacuum); a table never analysed says -1 or 0.
  const estimate =
    dialect === 'postgres'
      ? await sql<{ n: unknown }>`select reltuples as n from pg_class where oid = 'task_log_index'::regclass`.execute(
          db,
        )
      : await sql<{
          n: unknown;
        }>`select table_rows as n from information_schema.tables where table_schema = database() and table_name = 'task_log_index'`.execute(
          db,
        );
  const total = Math.max(sampled, Number(estimate.rows[0]?.n ?? 0));
  return Math.ceil((fewest / sampled) * total);
}

/**
 * Which of the given tasks have a line holding `phrase`, read task by task from each task's own index rows
 * (the primary key's range, SQLite's rowid range), never through the whole store's matches of a common word:
 * what this reads is bounded by the tasks' lines. The caller bounds the tasks.
 */
export async function listTasksHolding(
  db: Db,
  dialect: Dialect,
  phrase: string,
  taskIds: readonly number[],
): Promise<number[]> {
  if (taskIds.length === 0) return [];
  if (dialect === 'sqlite') {
    const holding: number[] = [];
    for (const id of taskIds) {
      const { rows } =
        await sql`select 1 as hit from task_log_fts where task_log_fts match ${`"${phrase}"`} and rowid >= (${id} << 32) and rowid < ((${id} + 1) << 32) limit 1`.execute(
          db,
        );
      if (rows.length > 0) holding.push(id);
    }
    return holding;
  }
  // PostgreSQL: "offset 0" keeps the phrase test out of the scan, which would otherwise go through the GIN
  // index (every line of the store holding a common word) rather than these tasks' rows.
  const query =
    dialect === 'postgres'
      ? sql<{
          task_id: number;
        }>`select distinct task_id from (select task_id, words from task_log_index where task_id in (${sql.join(taskIds)}) offset 0) s where words @@ phraseto_tsquery('simple', ${phrase})`
      : sql<{
          task_id: number;
        }>`select distinct task_id from task_log_index where task_id in (${sql.join(taskIds)}) and concat(' ', words, ' ') like ${`% ${phrase} %`}`;
  const { rows } = await query.execute(db);
  return rows.map((row) => Number(row.task_id));
}
