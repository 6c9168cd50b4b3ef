import type { GantryMigration } from '../schema.ts';

/**
 * The built-in Terraform/OpenTofu HTTP state backend: aliases (the URLs terraform talks to), the
 * state history of each workspace inventory, and at most one lock per workspace.
 */
export const terraform: GantryMigration = {
  name: '0008-terraform',
  async up(db, h) {
    const time = 'varchar(40)';
    await h
      .finish(
        h
          .withId(db.schema.createTable('terraform_alias'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('inventory_id', 'integer', (c) => c.notNull().references('inventory.id').onDelete('cascade'))
          .addColumn('alias', 'varchar(64)', (c) => c.notNull().unique())
          // HTTP Basic credentials: the login/password of this key (user aliases)...
          .addColumn('auth_key_id', 'integer', (c) => c.references('access_key.id'))
          // ...or, for the alias a running task gets, a one-time secret that is valid while the task runs.
          .addColumn('task_id', 'integer', (c) => c.references('task.id').onDelete('cascade'))
          .addColumn('task_secret_hash', 'varchar(64)')
          .addColumn('created', time, (c) => c.notNull()),
      )
      .execute();
    await db.schema.createIndex('terraform_alias_inventory_idx').on('terraform_alias').column('inventory_id').execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('terraform_state'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('inventory_id', 'integer', (c) => c.notNull().references('inventory.id').onDelete('cascade'))
          .addColumn('task_id', 'integer', (c) => c.references('task.id').onDelete('set null'))
          .addColumn('state', h.longText, (c) => c.notNull())
          .addColumn('created', time, (c) => c.notNull()),
      )
      .execute();
    await db.schema
      .createIndex('terraform_state_inventory_idx')
      .on('terraform_state')
      .columns(['inventory_id', 'id'])
      .execute();

    // The primary key makes taking a lock one atomic insert, also between several servers.
    await h
      .finish(
        db.schema
          .createTable('terraform_lock')
          .addColumn('inventory_id', 'integer', (c) => c.primaryKey().references('inventory.id').onDelete('cascade'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('lock_id', 'varchar(255)', (c) => c.notNull())
          .addColumn('info', h.longText, (c) => c.notNull())
          .addColumn('created', time, (c) => c.notNull()),
      )
      .execute();
  },
};
