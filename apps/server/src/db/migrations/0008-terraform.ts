import { defineMigration, longText, nullable, primaryKey, references, time, unique, varchar } from '../schema.ts';

/**
 * The built-in Terraform/OpenTofu HTTP state backend: aliases (the URLs terraform talks to), the
 * state history of each workspace inventory, and at most one lock per workspace.
 */
export const terraform = defineMigration('0008-terraform', async (_db, h) => {
  await h.createTable('terraform_alias', {
    project_id: references('project', 'cascade'),
    inventory_id: references('inventory', 'cascade'),
    alias: unique(varchar(64)),
    // HTTP Basic credentials: the login/password of this key (user aliases)...
    auth_key_id: nullable(references('access_key')),
    // ...or, for the alias a running task gets, a one-time secret that is valid while the task runs.
    task_id: nullable(references('task', 'cascade')),
    task_secret_hash: nullable(varchar(64)),
    created: time,
  });
  await h.createIndexes('terraform_alias', { terraform_alias_inventory_idx: ['inventory_id'] });

  await h.createTable('terraform_state', {
    project_id: references('project', 'cascade'),
    inventory_id: references('inventory', 'cascade'),
    task_id: nullable(references('task', 'set null')),
    state: longText,
    created: time,
  });
  await h.createIndexes('terraform_state', { terraform_state_inventory_idx: ['inventory_id', 'id'] });

  // The primary key makes taking a lock one atomic insert, also between several servers.
  await h.createTable('terraform_lock', {
    inventory_id: primaryKey(references('inventory', 'cascade')),
    project_id: references('project', 'cascade'),
    lock_id: varchar(255),
    info: longText,
    created: time,
  });
});
