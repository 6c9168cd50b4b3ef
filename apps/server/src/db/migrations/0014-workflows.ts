import { defineMigration, integer, longText, nullable, references, time, varchar } from '../schema.ts';

export const workflows = defineMigration('0014-workflows', async (_db, h) => {
  await h.createTable('workflow', {
    project_id: references('project', 'cascade'),
    name: varchar(255),
    description: longText,
    // The number of the revision in force; every saved change adds one.
    revision: integer(),
    created: time,
    updated: time,
  });
  // A workflow is found by its name when it is applied from a file.
  await h.createUniqueIndexes('workflow', { workflow_project_name: ['project_id', 'name'] });

  await h.createTable('workflow_revision', {
    workflow_id: references('workflow', 'cascade'),
    project_id: references('project', 'cascade'),
    number: integer(),
    definition: longText,
    user_id: nullable(references('users', 'set null')),
    created: time,
  });
  await h.createUniqueIndexes('workflow_revision', { workflow_revision_number: ['workflow_id', 'number'] });

  // The templates the revision in force uses: what the references of a template read.
  await h.createTable('workflow_template', {
    workflow_id: references('workflow', 'cascade'),
    project_id: references('project', 'cascade'),
    template_id: references('template', 'cascade'),
  });
  await h.createUniqueIndexes('workflow_template', { workflow_template_key: ['template_id', 'workflow_id'] });
  await h.createIndexes('workflow_template', { workflow_template_workflow_idx: ['workflow_id'] });
});
