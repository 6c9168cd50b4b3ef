import type { ColumnDefinitionBuilder } from 'kysely';
import type { GantryMigration } from '../schema.ts';

const time = 'varchar(40)';
const flag = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);

export const foundation: GantryMigration = {
  name: '0001-foundation',
  async up(db, h) {
    await h
      .finish(
        h
          .withId(db.schema.createTable('users'))
          .addColumn('created', time, (c) => c.notNull())
          .addColumn('username', 'varchar(255)', (c) => c.notNull().unique())
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('email', 'varchar(255)', (c) => c.notNull().unique())
          .addColumn('password_hash', 'varchar(255)')
          .addColumn('admin', 'integer', flag)
          .addColumn('external', 'integer', flag)
          .addColumn('alert', 'integer', flag)
          .addColumn('pro', 'integer', flag),
      )
      .execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('session'))
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
          .addColumn('created', time, (c) => c.notNull())
          .addColumn('last_active', time, (c) => c.notNull())
          .addColumn('expired', 'integer', flag)
          .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
          .addColumn('user_agent', 'varchar(255)', (c) => c.notNull().defaultTo('')),
      )
      .execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('api_token'))
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
          .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
          .addColumn('name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
          .addColumn('created', time, (c) => c.notNull())
          .addColumn('expires_at', time)
          .addColumn('expired', 'integer', flag),
      )
      .execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('project'))
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('created', time, (c) => c.notNull())
          .addColumn('alert', 'integer', flag)
          .addColumn('alert_chat', 'varchar(255)')
          .addColumn('max_parallel_tasks', 'integer', flag)
          .addColumn('type', 'varchar(32)', (c) => c.notNull().defaultTo('')),
      )
      .execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('project_user'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('role', 'varchar(32)', (c) => c.notNull())
          .addColumn('created', time, (c) => c.notNull())
          .addUniqueConstraint('project_user_project_user_unique', ['project_id', 'user_id']),
      )
      .execute();
    await db.schema.createIndex('project_user_user_idx').on('project_user').column('user_id').execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('event'))
          .addColumn('created', time, (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('project_id', 'integer', (c) => c.references('project.id').onDelete('cascade'))
          .addColumn('object_id', 'integer')
          .addColumn('object_type', 'varchar(64)')
          .addColumn('object_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
          .addColumn('description', 'varchar(1024)', (c) => c.notNull().defaultTo('')),
      )
      .execute();
    await db.schema.createIndex('event_project_idx').on('event').columns(['project_id', 'id']).execute();
  },
};
