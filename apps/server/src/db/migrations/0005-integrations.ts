import { defineMigration, integer, longText, nullable, references, time, unique, varchar } from '../schema.ts';

export const integrations = defineMigration('0005-integrations', async (_db, h) => {
  await h.createTable('integration', {
    project_id: references('project', 'cascade'),
    template_id: references('template'),
    name: varchar(255),
    auth_method: varchar(20),
    auth_header: varchar(255),
    auth_secret_id: nullable(references('access_key')),
    searchable: integer(0),
    task_params: longText,
    created: time,
  });
  await h.createIndexes('integration', {
    integration_project_idx: ['project_id', 'name'],
    integration_template_idx: ['template_id'],
  });

  // An alias without integration_id belongs to the whole project: it serves every searchable integration.
  await h.createTable('integration_alias', {
    project_id: references('project', 'cascade'),
    integration_id: nullable(references('integration', 'cascade')),
    alias: unique(varchar(64)),
    created: time,
  });
  await h.createIndexes('integration_alias', { integration_alias_owner_idx: ['project_id', 'integration_id'] });

  await h.createTable('integration_extract_value', {
    project_id: references('project', 'cascade'),
    integration_id: references('integration', 'cascade'),
    name: varchar(255),
    value_source: varchar(20),
    body_data_type: varchar(20),
    key: varchar(1024),
    variable: varchar(255),
    variable_type: varchar(20),
  });
  await h.createIndexes('integration_extract_value', { integration_extract_value_owner_idx: ['integration_id'] });

  await h.createTable('integration_matcher', {
    project_id: references('project', 'cascade'),
    integration_id: references('integration', 'cascade'),
    name: varchar(255),
    match_type: varchar(20),
    body_data_type: varchar(20),
    key: varchar(1024),
    method: varchar(20),
    value: longText,
  });
  await h.createIndexes('integration_matcher', { integration_matcher_owner_idx: ['integration_id'] });
});
