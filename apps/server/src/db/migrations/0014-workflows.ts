import type { GantryMigration } from '../schema.ts';

export const workflows: GantryMigration = {
  name: '0014-workflows',
  async up(db, h) {
    await h
      .finish(
        h
          .withId(db.schema.createTable('workflow'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('description', h.longText, (c) => c.notNull())
          // The number of the revision in force; every saved change adds one.
          .addColumn('revision', 'integer', (c) => c.notNull())
          .addColumn('created', 'varchar(40)', (c) => c.notNull())
          .addColumn('updated', 'varchar(40)', (c) => c.notNull()),
      )
      .execute();
    // A workflow is found by its name when it is applied from a file.
    await db.schema
      .createIndex('workflow_project_name')
      .on('workflow')
      .columns(['project_id', 'name'])
      .unique()
      .execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('workflow_revision'))
          .addColumn('workflow_id', 'integer', (c) => c.notNull().references('workflow.id').onDelete('cascade'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('number', 'integer', (c) => c.notNull())
          .addColumn('definition', h.longText, (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('created', 'varchar(40)', (c) => c.notNull()),
      )
      .execute();
    await db.schema
      .createIndex('workflow_revision_number')
      .on('workflow_revision')
      .columns(['workflow_id', 'number'])
      .unique()
      .execute();

    // The templates the revision in force uses: what the references of a template read.
    await h
      .finish(
        h
          .withId(db.schema.createTable('workflow_template'))
          .addColumn('workflow_id', 'integer', (c) => c.notNull().references('workflow.id').onDelete('cascade'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade')),
      )
      .execute();
    await db.schema
      .createIndex('workflow_template_key')
      .on('workflow_template')
      .columns(['template_id', 'workflow_id'])
      .unique()
      .execute();
    await db.schema
      .createIndex('workflow_template_workflow_idx')
      .on('workflow_template')
      .column('workflow_id')
      .execute();
  },
};
