import { defineMigration, integer, nullable, references, time, unique, varchar } from '../schema.ts';

export const foundation = defineMigration('0001-foundation', async (_db, h) => {
  await h.createTable('users', {
    created: time,
    username: unique(varchar(255)),
    name: varchar(255),
    email: unique(varchar(255)),
    password_hash: nullable(varchar(255)),
    admin: integer(0),
    external: integer(0),
    alert: integer(0),
    pro: integer(0),
  });

  await h.createTable('session', {
    user_id: references('users', 'cascade'),
    token_hash: unique(varchar(64)),
    created: time,
    last_active: time,
    expired: integer(0),
    ip: varchar(64, ''),
    user_agent: varchar(255, ''),
  });

  await h.createTable('api_token', {
    user_id: references('users', 'cascade'),
    token_hash: unique(varchar(64)),
    prefix: varchar(16),
    name: varchar(255, ''),
    created: time,
    expires_at: nullable(time),
    expired: integer(0),
  });

  await h.createTable('project', {
    name: varchar(255),
    created: time,
    alert: integer(0),
    alert_chat: nullable(varchar(255)),
    max_parallel_tasks: integer(0),
    type: varchar(32, ''),
  });

  await h.createTable(
    'project_user',
    {
      project_id: references('project', 'cascade'),
      user_id: references('users', 'cascade'),
      role: varchar(32),
      created: time,
    },
    { unique: { project_user_project_user_unique: ['project_id', 'user_id'] } },
  );
  await h.createIndexes('project_user', { project_user_user_idx: ['user_id'] });

  await h.createTable('event', {
    created: time,
    user_id: nullable(references('users', 'set null')),
    project_id: nullable(references('project', 'cascade')),
    object_id: nullable(integer()),
    object_type: nullable(varchar(64)),
    object_name: varchar(255, ''),
    description: varchar(1024, ''),
  });
  await h.createIndexes('event', { event_project_idx: ['project_id', 'id'] });
});
