import type { GantryMigration } from '../schema.ts';

export const templateRunSettings: GantryMigration = {
  name: '0023-template-run-settings',
  async up(db, h) {
    // A template's approval gate as JSON (approvers, N, timeout, on-timeout); null runs its tasks at once.
    await db.schema.alterTable('template').addColumn('approval', 'text').execute();
    // Retries of a failed task: how many (0 is off) and the pause before each.
    await db.schema
      .alterTable('template')
      .addColumn('retries', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('template')
      .addColumn('retry_delay_seconds', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // The template's gate as the task was created under it (a later change of the template does not move
    // the goalposts of a task already waiting), and when its on-timeout rule settles it.
    await db.schema.alterTable('task').addColumn('approval', 'text').execute();
    await db.schema.alterTable('task').addColumn('approval_due', 'varchar(40)').execute();
    // The first task of a retry chain (no foreign key, so retention may delete either first) and this one's attempt.
    await db.schema.alterTable('task').addColumn('retry_of_task_id', 'integer').execute();
    await db.schema
      .alterTable('task')
      .addColumn('retry_attempt', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // The retries the chain may take, as its template said when the first task was created.
    await db.schema
      .alterTable('task')
      .addColumn('retry_limit', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // When a failed task's next retry is due; cleared once that retry exists.
    await db.schema.alterTable('task').addColumn('retry_due', 'varchar(40)').execute();
    // One task per attempt of a chain, whichever node creates it.
    await db.schema
      .createIndex('task_retry_attempt')
      .on('task')
      .columns(['retry_of_task_id', 'retry_attempt'])
      .unique()
      .execute();
    await db.schema.createIndex('task_retry_due_idx').on('task').column('retry_due').execute();
    await db.schema.createIndex('task_approval_due_idx').on('task').column('approval_due').execute();
    // Each approver's decision on a task that waits for approval, with the reason they gave.
    await h
      .finish(
        h
          .withId(db.schema.createTable('task_approval'))
          .addColumn('task_id', 'integer', (c) => c.notNull().references('task.id').onDelete('cascade'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          // Kept (as null) when the user is deleted; the username says who it was.
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('username', 'varchar(255)', (c) => c.notNull())
          .addColumn('decision', 'varchar(16)', (c) => c.notNull())
          .addColumn('reason', 'varchar(1024)', (c) => c.notNull())
          .addColumn('created', 'varchar(40)', (c) => c.notNull()),
      )
      .execute();
    await db.schema
      .createIndex('task_approval_user')
      .on('task_approval')
      .columns(['task_id', 'user_id'])
      .unique()
      .execute();
  },
};
