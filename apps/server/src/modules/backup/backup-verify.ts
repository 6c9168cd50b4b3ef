import type { ProjectBackup } from '@gantry/contract';
import { RUN_ONCE_SCHEDULE_TYPE, VAULT_SCRIPT_PATTERN, isPasswordKeyType } from '@gantry/contract';
import { AppError } from '../../errors.ts';
import { explainCron } from '../schedules/cron.ts';
import { resolveVariables, workflowVariablesOf } from '../workflows/workflow-variables.ts';
import { VARIABLE_GROUP_KEY_OWNERS, environmentOf, fail, vaultsOf } from './backup-sections.ts';

/** Indexes a section by name, refusing duplicates: a name is what the other sections point at. */
function indexByName<T>(section: string, items: readonly T[], nameOf: (item: T) => string): Map<string, T> {
  const index = new Map<string, T>();
  items.forEach((item, i) => {
    const name = nameOf(item);
    if (index.has(name)) throw fail(`${section}[${i}]`, `duplicate name "${name}"`);
    index.set(name, item);
  });
  return index;
}

/**
 * Checks that the document is whole before anything is written: unique names per section, every
 * reference naming an object of the backup, valid cron expressions. Throws a 400 naming the entity.
 */
export function verifyBackup(backup: ProjectBackup, timezone: string): void {
  const keys = indexByName(
    'keys',
    backup.keys.filter((k) => !VARIABLE_GROUP_KEY_OWNERS.has(k.owner ?? '')),
    (k) => k.name,
  );
  const repositories = indexByName('repositories', backup.repositories, (r) => r.name);
  const inventories = indexByName('inventories', backup.inventories, (i) => i.name);
  const environments = indexByName('environments', backup.environments, (e) => e.name);
  const views = indexByName('views', backup.views, (v) => v.title);
  const templates = indexByName('templates', backup.templates, (t) => t.name);
  const workflows = indexByName('workflows', backup.workflows, (w) => w.name);

  const sections = {
    key: ['keys', keys],
    repository: ['repositories', repositories],
    inventory: ['inventories', inventories],
    environment: ['environments', environments],
    view: ['views', views],
    template: ['templates', templates],
    workflow: ['workflows', workflows],
  } as const;
  const need = (where: string, kind: keyof typeof sections, name: string | null | undefined) => {
    const [section, index] = sections[kind];
    if (name && !index.has(name)) throw fail(where, `${kind} "${name}" does not exist in ${section}`);
  };
  /** A schedule or integration of a workflow: the workflow is in the backup and takes the variables given, as the API checks them. */
  const needTarget = (
    where: string,
    target: { template?: string | null; workflow?: string | null; task_params?: Record<string, unknown> | null },
    requireAll: boolean,
  ) => {
    need(where, 'template', target.template);
    need(where, 'workflow', target.workflow);
    const workflow = target.workflow ? workflows.get(target.workflow) : undefined;
    if (!workflow) return;
    try {
      resolveVariables(workflow, workflowVariablesOf(target.task_params ?? {}), requireAll);
    } catch (error) {
      if (error instanceof AppError && error.status < 500) throw fail(where, error.message);
      throw error;
    }
  };

  backup.repositories.forEach((r, i) => need(`repositories[${i}] "${r.name}"`, 'key', r.ssh_key));
  backup.inventories.forEach((inv, i) => {
    const where = `inventories[${i}] "${inv.name}"`;
    need(where, 'key', inv.ssh_key);
    need(where, 'key', inv.become_key);
    need(where, 'repository', inv.repository);
  });
  backup.templates.forEach((t, i) => {
    const where = `templates[${i}] "${t.name}"`;
    need(where, 'repository', t.repository);
    need(where, 'inventory', t.inventory);
    need(where, 'environment', environmentOf(t));
    need(where, 'view', t.view);
    if (t.type === 'deploy') {
      if (!t.build_template) throw fail(where, 'a deploy template needs its build_template');
      const build = templates.get(t.build_template);
      if (!build) throw fail(where, `template "${t.build_template}" does not exist in templates`);
      if (build.type !== 'build') throw fail(where, `build_template "${t.build_template}" is not a build template`);
    }
    const vaultNames = new Set<string>();
    for (const vault of vaultsOf(t)) {
      if (vaultNames.has(vault.name)) throw fail(where, 'vault names must be unique; only one vault may have no name');
      vaultNames.add(vault.name);
      if (vault.type === 'script') {
        if (!VAULT_SCRIPT_PATTERN.test(vault.script)) throw fail(where, 'a vault script name must end with -client');
        continue;
      }
      if (!vault.vault_key) throw fail(where, 'a password vault needs its vault_key');
      need(where, 'key', vault.vault_key);
      const key = keys.get(vault.vault_key);
      if (key && !isPasswordKeyType(key.type))
        throw fail(where, `vault key "${vault.vault_key}" must be a login_password or string key`);
    }
    if (t.cron?.trim()) {
      const problem = explainCron(t.cron, timezone);
      if (problem) throw fail(where, problem);
    }
  });
  indexByName('integrations', backup.integrations, (integration) => integration.name);
  const aliases = new Set<string>();
  const claimAlias = (where: string, alias: string) => {
    if (aliases.has(alias)) throw fail(where, `duplicate alias "${alias}"`);
    aliases.add(alias);
  };
  backup.integrations.forEach((integration, i) => {
    const where = `integrations[${i}] "${integration.name}"`;
    needTarget(where, integration, false);
    need(where, 'key', integration.auth_secret);
    const secret = integration.auth_secret ? keys.get(integration.auth_secret) : undefined;
    if (secret && !isPasswordKeyType(secret.type))
      throw fail(where, `auth_secret "${integration.auth_secret}" must be a login_password or string key`);
    need(where, 'inventory', integration.task_params.inventory_name);
    integration.aliases.forEach((alias) => claimAlias(where, alias));
  });
  backup.integration_aliases.forEach((alias, i) => claimAlias(`integration_aliases[${i}]`, alias));
  backup.schedules.forEach((s, i) => {
    const where = `schedules[${i}]${s.name ? ` "${s.name}"` : ''}`;
    if (s.type === RUN_ONCE_SCHEDULE_TYPE) return;
    if (s.type && s.type !== 'cron') throw fail(where, `schedules of type "${s.type}" are not supported`);
    needTarget(where, s, true);
    need(where, 'repository', s.checkable_repository);
    need(where, 'inventory', s.task_params?.inventory_name);
    const problem = explainCron(s.cron_format, timezone);
    if (problem) throw fail(where, problem);
  });
}
