import { sql } from 'kysely';
import { defineMigration } from '../schema.ts';

/**
 * Log lines are keyed by (task_id, seq), the key every reader and every deletion already uses,
 * instead of a serial id nothing read: one index less and no counter to draw from per line, the
 * bulk of what storing a line cost. On PostgreSQL the foreign key to `task` goes too: checking it
 * per row was half the cost of a COPY; a statement trigger deletes a deleted task's lines instead.
 * MySQL/MariaDB keep the foreign key (their triggers do not fire on cascaded deletes) and SQLite
 * stores the lines in their key's own b-tree (WITHOUT ROWID).
 *
 * Rewriting the table: instant on PostgreSQL (a dropped column is only marked so), a copy of the
 * table on MySQL/MariaDB and SQLite (about a minute per 10 million lines).
 */
export const taskOutputKey = defineMigration('0017-task-output-key', async (db, h) => {
  if (h.dialect === 'postgres') {
    await sql`alter table task_output drop constraint if exists task_output_task_id_fkey`.execute(db);
    await sql`alter table task_output drop column id`.execute(db);
    await sql`alter table task_output add constraint task_output_task_seq_idx primary key using index task_output_task_seq_idx`.execute(
      db,
    );
    await h.followTaskDeletion('task_output');
    return;
  }
  if (h.dialect === 'mysql') {
    await sql`alter table task_output drop column id, add primary key (task_id, seq), drop index task_output_task_seq_idx`.execute(
      db,
    );
    return;
  }
  await sql`
      create table task_output_keyed (
        task_id integer not null references task (id) on delete cascade,
        seq integer not null,
        time varchar(40) not null,
        output text not null,
        primary key (task_id, seq)
      ) without rowid`.execute(db);
  await sql`insert into task_output_keyed (task_id, seq, time, output) select task_id, seq, time, output from task_output`.execute(
    db,
  );
  await sql`drop table task_output`.execute(db);
  await sql`alter table task_output_keyed rename to task_output`.execute(db);
});
