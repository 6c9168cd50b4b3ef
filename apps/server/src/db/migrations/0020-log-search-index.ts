import { sql } from 'kysely';
import { defineMigration, integer } from '../schema.ts';

/**
 * The search index over every project's task logs (docs/task-log.md, "Search across tasks"): kept apart from
 * `task_output`, so storing a running task's lines pays nothing for it; an indexer fills it in slices once a
 * task has finished. `task.log_indexed` is how many of a task's lines are in it.
 *
 * Each store's own text search: SQLite an FTS5 table without a copy of the text (its rowid is task id and seq,
 * `task_id << 32 | seq`), PostgreSQL a tsvector per line with a GIN index (built in, no extension needed),
 * MariaDB/MySQL an InnoDB FULLTEXT index over the line's words. The index holds the words of the text as the
 * log shows it (secrets masked, no colour codes), lower-cased; a deleted task takes its index rows with it.
 */
export const logSearchIndex = defineMigration('0020-log-search-index', async (db, h) => {
  await h.addColumns('task', { log_indexed: integer(0) });
  if (h.dialect === 'sqlite') {
    await sql`
        create virtual table task_log_fts using fts5(
          words, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0'
        )`.execute(db);
    await sql`
        create trigger task_log_fts_follow_task after delete on task begin
          delete from task_log_fts where rowid >= (old.id << 32) and rowid < ((old.id + 1) << 32);
        end`.execute(db);
    return;
  }
  if (h.dialect === 'postgres') {
    await sql`
        create table task_log_index (
          task_id integer not null,
          seq integer not null,
          words tsvector not null,
          primary key (task_id, seq)
        )`.execute(db);
    await sql`create index task_log_index_words_idx on task_log_index using gin (words)`.execute(db);
    // As for task_output (0017): no foreign key to check per row; a statement trigger follows deletions.
    await h.followTaskDeletion('task_log_index');
    return;
  }
  // InnoDB reads the stopword setting when it builds a FULLTEXT index: without it, "the", "about" or
  // "will" would never be found. One connection, so the setting applies to the statement that creates it.
  await db.connection().execute(async (connection) => {
    await sql`set session innodb_ft_enable_stopword = off`.execute(connection);
    try {
      await sql`
          create table task_log_index (
            task_id integer not null,
            seq integer not null,
            words longtext not null,
            primary key (task_id, seq),
            fulltext key task_log_index_words_idx (words),
            constraint task_log_index_task_fk foreign key (task_id) references task (id) on delete cascade
          ) engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`.execute(connection);
    } finally {
      await sql`set session innodb_ft_enable_stopword = on`.execute(connection);
    }
  });
});
