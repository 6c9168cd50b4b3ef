import type { ColumnDefinitionBuilder } from 'kysely';
import type { GantryMigration } from '../schema.ts';

const time = 'varchar(40)';
const flag = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
const projectRef = (c: ColumnDefinitionBuilder) => c.notNull().references('project.id').onDelete('cascade');

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

export const projectResources: GantryMigration = {
  name: '0002-project-resources',
  async up(db, h) {
    await h
      .finish(
        h
          .withId(db.schema.createTable('access_key'))
          .addColumn('project_id', 'integer', projectRef)
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('type', 'varchar(32)', (c) => c.notNull())
          .addColumn('secret', h.longText)
          .addColumn('created', time, (c) => c.notNull()),
      )
      .execute();
    await db.schema.createIndex('access_key_project_idx').on('access_key').column('project_id').execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('repository'))
          .addColumn('project_id', 'integer', projectRef)
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('git_url', 'varchar(2048)', (c) => c.notNull())
          .addColumn('git_branch', 'varchar(255)', (c) => c.notNull().defaultTo(''))
          .addColumn('ssh_key_id', 'integer', (c) => c.notNull().references('access_key.id'))
          .addColumn('created', time, (c) => c.notNull()),
      )
      .execute();
    await db.schema.createIndex('repository_project_idx').on('repository').column('project_id').execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('environment'))
          .addColumn('project_id', 'integer', projectRef)
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('json', h.longText, (c) => c.notNull())
          .addColumn('env', h.longText, (c) => c.notNull())
          .addColumn('created', time, (c) => c.notNull()),
      )
      .execute();
    await db.schema.createIndex('environment_project_idx').on('environment').column('project_id').execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('environment_secret'))
          .addColumn('project_id', 'integer', projectRef)
          .addColumn('environment_id', 'integer', (c) => c.notNull().references('environment.id').onDelete('cascade'))
          .addColumn('type', 'varchar(16)', (c) => c.notNull())
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('secret', h.longText, (c) => c.notNull()),
      )
      .execute();
    await db.schema
      .createIndex('environment_secret_env_idx')
      .on('environment_secret')
      .column('environment_id')
      .execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('view'))
          .addColumn('project_id', 'integer', projectRef)
          .addColumn('title', 'varchar(255)', (c) => c.notNull())
          .addColumn('position', 'integer', flag),
      )
      .execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('template'))
          .addColumn('project_id', 'integer', projectRef)
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('description', h.longText, (c) => c.notNull())
          .addColumn('app', 'varchar(64)', (c) => c.notNull())
          .addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo(''))
          .addColumn('playbook', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
          .addColumn('inventory_id', 'integer')
          .addColumn('repository_id', 'integer', (c) => c.references('repository.id'))
          .addColumn('environment_id', 'integer', (c) => c.references('environment.id'))
          .addColumn('view_id', 'integer', (c) => c.references('view.id').onDelete('set null'))
          .addColumn('arguments', h.longText)
          .addColumn('allow_override_args_in_task', 'integer', flag)
          .addColumn('allow_override_branch_in_task', 'integer', flag)
          .addColumn('allow_parallel_tasks', 'integer', flag)
          .addColumn('suppress_success_alerts', 'integer', flag)
          .addColumn('start_version', 'varchar(255)')
          .addColumn('build_template_id', 'integer', (c) => c.references('template.id'))
          .addColumn('autorun', 'integer', flag)
          .addColumn('git_branch', 'varchar(255)')
          .addColumn('survey_vars', h.longText, (c) => c.notNull())
          .addColumn('task_params', h.longText, (c) => c.notNull())
          .addColumn('created', time, (c) => c.notNull()),
      )
      .execute();
    await db.schema.createIndex('template_project_idx').on('template').column('project_id').execute();

    // Workspace inventories belong to a template (template_id); others may read their file from a repository.
    await h
      .finish(
        h
          .withId(db.schema.createTable('inventory'))
          .addColumn('project_id', 'integer', projectRef)
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('type', 'varchar(32)', (c) => c.notNull())
          .addColumn('inventory', h.longText, (c) => c.notNull())
          .addColumn('ssh_key_id', 'integer', (c) => c.references('access_key.id'))
          .addColumn('become_key_id', 'integer', (c) => c.references('access_key.id'))
          .addColumn('repository_id', 'integer', (c) => c.references('repository.id'))
          .addColumn('template_id', 'integer', (c) => c.references('template.id').onDelete('cascade'))
          .addColumn('created', time, (c) => c.notNull()),
      )
      .execute();
    await db.schema.createIndex('inventory_project_idx').on('inventory').column('project_id').execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('template_vault'))
          .addColumn('project_id', 'integer', projectRef)
          .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
          .addColumn('name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
          .addColumn('type', 'varchar(16)', (c) => c.notNull())
          .addColumn('vault_key_id', 'integer', (c) => c.references('access_key.id'))
          .addColumn('script', 'varchar(1024)', (c) => c.notNull().defaultTo('')),
      )
      .execute();
    await db.schema.createIndex('template_vault_template_idx').on('template_vault').column('template_id').execute();

    await h
      .finish(
        db.schema
          .createTable('app')
          .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('active', 'integer', flag)
          .addColumn('priority', 'integer', flag)
          .addColumn('title', 'varchar(255)', (c) => c.notNull().defaultTo(''))
          .addColumn('icon', 'varchar(255)', (c) => c.notNull().defaultTo(''))
          .addColumn('color', 'varchar(64)', (c) => c.notNull().defaultTo(''))
          .addColumn('dark_color', 'varchar(64)', (c) => c.notNull().defaultTo(''))
          .addColumn('path', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
          .addColumn('args', h.longText, (c) => c.notNull()),
      )
      .execute();
    await db
      .insertInto('app' as never)
      .values(DEFAULT_APPS.map((app) => ({ ...app, active: 1, path: '', args: '[]' })) as never)
      .execute();
  },
};
