import type { GantryMigration } from '../schema.ts';

export const integrations: GantryMigration = {
  name: '0005-integrations',
  async up(db, h) {
    await h
      .finish(
        h
          .withId(db.schema.createTable('integration'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id'))
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('auth_method', 'varchar(20)', (c) => c.notNull())
          .addColumn('auth_header', 'varchar(255)', (c) => c.notNull())
          .addColumn('auth_secret_id', 'integer', (c) => c.references('access_key.id'))
          .addColumn('searchable', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('task_params', h.longText, (c) => c.notNull())
          .addColumn('created', 'varchar(40)', (c) => c.notNull()),
      )
      .execute();
    await db.schema.createIndex('integration_project_idx').on('integration').columns(['project_id', 'name']).execute();
    await db.schema.createIndex('integration_template_idx').on('integration').column('template_id').execute();

    // An alias without integration_id belongs to the whole project: it serves every searchable integration.
    await h
      .finish(
        h
          .withId(db.schema.createTable('integration_alias'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('integration_id', 'integer', (c) => c.references('integration.id').onDelete('cascade'))
          .addColumn('alias', 'varchar(64)', (c) => c.notNull().unique())
          .addColumn('created', 'varchar(40)', (c) => c.notNull()),
      )
      .execute();
    await db.schema
      .createIndex('integration_alias_owner_idx')
      .on('integration_alias')
      .columns(['project_id', 'integration_id'])
      .execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('integration_extract_value'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('integration_id', 'integer', (c) => c.notNull().references('integration.id').onDelete('cascade'))
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('value_source', 'varchar(20)', (c) => c.notNull())
          .addColumn('body_data_type', 'varchar(20)', (c) => c.notNull())
          .addColumn('key', 'varchar(1024)', (c) => c.notNull())
          .addColumn('variable', 'varchar(255)', (c) => c.notNull())
          .addColumn('variable_type', 'varchar(20)', (c) => c.notNull()),
      )
      .execute();
    await db.schema
      .createIndex('integration_extract_value_owner_idx')
      .on('integration_extract_value')
      .column('integration_id')
      .execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('integration_matcher'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('integration_id', 'integer', (c) => c.notNull().references('integration.id').onDelete('cascade'))
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('match_type', 'varchar(20)', (c) => c.notNull())
          .addColumn('body_data_type', 'varchar(20)', (c) => c.notNull())
          .addColumn('key', 'varchar(1024)', (c) => c.notNull())
          .addColumn('method', 'varchar(20)', (c) => c.notNull())
          .addColumn('value', h.longText, (c) => c.notNull()),
      )
      .execute();
    await db.schema
      .createIndex('integration_matcher_owner_idx')
      .on('integration_matcher')
      .column('integration_id')
      .execute();
  },
};
