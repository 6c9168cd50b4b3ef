import type { GantryMigration } from '../schema.ts';

export const workflowRuns: GantryMigration = {
  name: '0016-workflow-runs',
  async up(db, h) {
    // One run of a workflow: the revision it follows, who started it and with which variables.
    await h
      .finish(
        h
          .withId(db.schema.createTable('workflow_run'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('workflow_id', 'integer', (c) => c.notNull().references('workflow.id').onDelete('cascade'))
          .addColumn('revision', 'integer', (c) => c.notNull())
          .addColumn('status', 'varchar(32)', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('variables', h.longText, (c) => c.notNull())
          .addColumn('message', 'varchar(1024)', (c) => c.notNull())
          .addColumn('start', 'varchar(40)', (c) => c.notNull())
          .addColumn('end', 'varchar(40)'),
      )
      .execute();
    await db.schema
      .createIndex('workflow_run_workflow_idx')
      .on('workflow_run')
      .columns(['workflow_id', 'id'])
      .execute();
    // The engine's sweep reads the runs still going.
    await db.schema.createIndex('workflow_run_status_idx').on('workflow_run').column('status').execute();

    // The state of each step of a run. task_id has no foreign key: retention may delete the task, the step keeps its number.
    await h
      .finish(
        h
          .withId(db.schema.createTable('workflow_step_run'))
          .addColumn('run_id', 'integer', (c) => c.notNull().references('workflow_run.id').onDelete('cascade'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('step_key', 'varchar(64)', (c) => c.notNull())
          .addColumn('kind', 'varchar(16)', (c) => c.notNull())
          .addColumn('status', 'varchar(32)', (c) => c.notNull())
          .addColumn('task_id', 'integer')
          // When a wait ends or an approval times out.
          .addColumn('due', 'varchar(40)')
          .addColumn('message', 'varchar(1024)', (c) => c.notNull())
          .addColumn('start', 'varchar(40)')
          .addColumn('end', 'varchar(40)'),
      )
      .execute();
    await db.schema
      .createIndex('workflow_step_run_key')
      .on('workflow_step_run')
      .columns(['run_id', 'step_key'])
      .unique()
      .execute();
  },
};
