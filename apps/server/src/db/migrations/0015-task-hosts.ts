import type { GantryMigration } from '../schema.ts';

export const taskHosts: GantryMigration = {
  name: '0015-task-hosts',
  async up(db, h) {
    // What an ansible task did per host: counts per status for every host, and the results of its
    // tasks up to a bound (the contract's HOST_LIMITS), written once when the task ends.
    await h
      .finish(
        h
          .withId(db.schema.createTable('task_host'))
          .addColumn('task_id', 'integer', (c) => c.notNull().references('task.id').onDelete('cascade'))
          .addColumn('host', 'varchar(255)', (c) => c.notNull())
          .addColumn('ok', 'integer', (c) => c.notNull())
          .addColumn('changed', 'integer', (c) => c.notNull())
          .addColumn('failed', 'integer', (c) => c.notNull())
          .addColumn('unreachable', 'integer', (c) => c.notNull())
          .addColumn('skipped', 'integer', (c) => c.notNull())
          .addColumn('rescued', 'integer', (c) => c.notNull())
          .addColumn('ignored', 'integer', (c) => c.notNull()),
      )
      .execute();
    await db.schema.createIndex('task_host_task_idx').on('task_host').column('task_id').execute();
    await h
      .finish(
        h
          .withId(db.schema.createTable('task_host_result'))
          .addColumn('task_id', 'integer', (c) => c.notNull().references('task.id').onDelete('cascade'))
          .addColumn('host', 'varchar(255)', (c) => c.notNull())
          .addColumn('play', 'varchar(255)', (c) => c.notNull())
          .addColumn('task', 'varchar(255)', (c) => c.notNull())
          .addColumn('status', 'varchar(16)', (c) => c.notNull())
          .addColumn('duration_ms', 'integer', (c) => c.notNull())
          .addColumn('message', 'text', (c) => c.notNull()),
      )
      .execute();
    await db.schema.createIndex('task_host_result_task_idx').on('task_host_result').column('task_id').execute();
    // JSON of the hosts per outcome ({"ok":12,"changed":3,"failed":1,"unreachable":0}), for the history.
    await db.schema.alterTable('task').addColumn('host_recap', 'varchar(255)').execute();
    // The task whose failed hosts this one runs again; no foreign key, so retention may delete either first.
    await db.schema.alterTable('task').addColumn('rerun_of_task_id', 'integer').execute();
  },
};
