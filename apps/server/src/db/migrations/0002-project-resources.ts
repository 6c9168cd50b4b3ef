import { defineMigration, integer, longText, nullable, primaryKey, references, time, varchar } from '../schema.ts';

const projectId = references('project', 'cascade');

const DEFAULT_APPS = [
  { id: 'ansible', title: 'Ansible', icon: 'mdi-ansible', color: 'black', dark_color: 'white', priority: 1000 },
  {
    id: 'terraform',
    title: 'Terraform',
    icon: 'mdi-terraform',
    color: '#7b42bc',
    dark_color: '#7b42bc',
    priority: 900,
  },
  { id: 'tofu', title: 'OpenTofu', icon: 'mdi-pine-tree', color: '#e5c200', dark_color: '#e5c200', priority: 800 },
  { id: 'pulumi', title: 'Pulumi', icon: 'mdi-cloud', color: '#8a3391', dark_color: '#f26e7e', priority: 750 },
  { id: 'bash', title: 'Bash', icon: 'mdi-bash', color: 'black', dark_color: 'white', priority: 700 },
  {
    id: 'powershell',
    title: 'PowerShell',
    icon: 'mdi-powershell',
    color: '#2a5aa4',
    dark_color: '#5391fe',
    priority: 600,
  },
  {
    id: 'python',
    title: 'Python',
    icon: 'mdi-language-python',
    color: '#3776ab',
    dark_color: '#ffd43b',
    priority: 500,
  },
];

export const projectResources = defineMigration('0002-project-resources', async (db, h) => {
  await h.createTable('access_key', {
    project_id: projectId,
    name: varchar(255),
    type: varchar(32),
    secret: nullable(longText),
    created: time,
  });
  await h.createIndexes('access_key', { access_key_project_idx: ['project_id'] });

  await h.createTable('repository', {
    project_id: projectId,
    name: varchar(255),
    git_url: varchar(2048),
    git_branch: varchar(255, ''),
    ssh_key_id: references('access_key'),
    created: time,
  });
  await h.createIndexes('repository', { repository_project_idx: ['project_id'] });

  await h.createTable('environment', {
    project_id: projectId,
    name: varchar(255),
    json: longText,
    env: longText,
    created: time,
  });
  await h.createIndexes('environment', { environment_project_idx: ['project_id'] });

  await h.createTable('environment_secret', {
    project_id: projectId,
    environment_id: references('environment', 'cascade'),
    type: varchar(16),
    name: varchar(255),
    secret: longText,
  });
  await h.createIndexes('environment_secret', { environment_secret_env_idx: ['environment_id'] });

  await h.createTable('view', {
    project_id: projectId,
    title: varchar(255),
    position: integer(0),
  });

  await h.createTable('template', {
    project_id: projectId,
    name: varchar(255),
    description: longText,
    app: varchar(64),
    type: varchar(16, ''),
    playbook: varchar(1024, ''),
    inventory_id: nullable(integer()),
    repository_id: nullable(references('repository')),
    environment_id: nullable(references('environment')),
    view_id: nullable(references('view', 'set null')),
    arguments: nullable(longText),
    allow_override_args_in_task: integer(0),
    allow_override_branch_in_task: integer(0),
    allow_parallel_tasks: integer(0),
    suppress_success_alerts: integer(0),
    start_version: nullable(varchar(255)),
    build_template_id: nullable(references('template')),
    autorun: integer(0),
    git_branch: nullable(varchar(255)),
    survey_vars: longText,
    task_params: longText,
    created: time,
  });
  await h.createIndexes('template', { template_project_idx: ['project_id'] });

  // Workspace inventories belong to a template (template_id); others may read their file from a repository.
  await h.createTable('inventory', {
    project_id: projectId,
    name: varchar(255),
    type: varchar(32),
    inventory: longText,
    ssh_key_id: nullable(references('access_key')),
    become_key_id: nullable(references('access_key')),
    repository_id: nullable(references('repository')),
    template_id: nullable(references('template', 'cascade')),
    created: time,
  });
  await h.createIndexes('inventory', { inventory_project_idx: ['project_id'] });

  await h.createTable('template_vault', {
    project_id: projectId,
    template_id: references('template', 'cascade'),
    name: varchar(255, ''),
    type: varchar(16),
    vault_key_id: nullable(references('access_key')),
    script: varchar(1024, ''),
  });
  await h.createIndexes('template_vault', { template_vault_template_idx: ['template_id'] });

  await h.createTable('app', {
    id: primaryKey(varchar(64)),
    active: integer(0),
    priority: integer(0),
    title: varchar(255, ''),
    icon: varchar(255, ''),
    color: varchar(64, ''),
    dark_color: varchar(64, ''),
    path: varchar(1024, ''),
    args: longText,
  });
  await db
    .insertInto('app' as never)
    .values(DEFAULT_APPS.map((app) => ({ ...app, active: 1, path: '', args: '[]' })) as never)
    .execute();
});
