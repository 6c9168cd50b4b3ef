import { describe, expect, it } from 'vitest';
import type { Template } from '@gantry/contract';
import {
  TemplateFormSchema,
  getPlaybookKind,
  getTemplateFormDefaults,
  parseArguments,
  toCopyBody,
  toTemplateBody,
} from './template-form.ts';
import { makeSurveyVar } from '../../../testing/task-fixtures.ts';

const messagesByPath = (value: unknown) => {
  const result = TemplateFormSchema.safeParse(value);
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
};

const filled = {
  ...getTemplateFormDefaults({ app: 'ansible' }),
  name: 'Deploy site',
  playbook: 'site.yml',
  inventory_id: 1,
  repository_id: 2,
  environment_id: 3,
};

describe('template form validation', () => {
  it('reports every missing field of an ansible task at once', () => {
    expect(messagesByPath(getTemplateFormDefaults({ app: 'ansible' }))).toEqual({
      name: 'Name is required',
      playbook: 'Playbook filename is required',
      inventory_id: 'Inventory is required',
      repository_id: 'Repository is required',
      environment_id: 'Variable group is required',
    });
  });

  it('asks scripts for a script filename and infrastructure apps for neither playbook nor inventory', () => {
    expect(messagesByPath({ ...filled, app: 'bash', playbook: '' })).toEqual({
      playbook: 'Script filename is required',
    });
    expect(messagesByPath({ ...filled, app: 'terraform', playbook: '', inventory_id: null })).toEqual({});
  });

  it('needs a start version for builds and a build template for deploys', () => {
    expect(messagesByPath({ ...filled, type: 'build' })).toEqual({ start_version: 'Start version is required' });
    expect(messagesByPath({ ...filled, type: 'deploy' })).toEqual({ build_template_id: 'Build template is required' });
  });

  it('applies the vault rules: a key for password vaults, a -client script, unique lower-case names', () => {
    const vaults = [
      { name: '', type: 'password' as const, vault_key_id: null, script: '' },
      { name: 'Prod', type: 'script' as const, vault_key_id: null, script: 'vault-pass.sh' },
    ];
    expect(messagesByPath({ ...filled, vaults })).toEqual({
      'vaults.0.vault_key_id': 'Vault password is required',
      'vaults.1.script': 'Script name must end with -client (an extension is allowed)',
    });
    const duplicates = [
      { name: ' Prod ', type: 'password' as const, vault_key_id: 5, script: '' },
      { name: 'prod', type: 'script' as const, vault_key_id: null, script: 'scripts/vault-client.py' },
    ];
    expect(messagesByPath({ ...filled, vaults: duplicates })).toEqual({
      vaults: 'Vault names must be unique; only one vault may have no name',
    });
    const twoDefaults = [
      { name: '', type: 'password' as const, vault_key_id: 5, script: '' },
      { name: ' ', type: 'script' as const, vault_key_id: null, script: 'vault-client' },
    ];
    expect(messagesByPath({ ...filled, vaults: twoDefaults })).toEqual({
      vaults: 'Vault names must be unique; only one vault may have no name',
    });
  });
});

describe('template body', () => {
  it('clears fields that do not apply to the app or type and writes CLI args as a JSON array', () => {
    const body = toTemplateBody({
      ...filled,
      app: 'bash',
      type: 'deploy',
      start_version: '1.0.0',
      build_template_id: 4,
      autorun: true,
      arguments: ['--verbose', '  ', ' -e env=prod '],
      vaults: [{ name: '', type: 'password', vault_key_id: 5, script: '' }],
    });
    expect(body).toMatchObject({
      inventory_id: null,
      start_version: null,
      build_template_id: 4,
      autorun: true,
      arguments: '["--verbose","-e env=prod"]',
      vaults: [],
    });
    expect(toTemplateBody(filled).arguments).toBeNull();
  });

  it('reads stored CLI args back as a list, keeping text that is not a JSON array as one argument', () => {
    expect(parseArguments('["-v", "--check"]')).toEqual(['-v', '--check']);
    expect(parseArguments(null)).toEqual([]);
    expect(parseArguments('--diff')).toEqual(['--diff']);
  });

  it('names the field after the app', () => {
    expect([getPlaybookKind('ansible'), getPlaybookKind('python'), getPlaybookKind('tofu')]).toEqual([
      'playbook',
      'script',
      'subdirectory',
    ]);
  });

  it('copies a template with all its settings under a new name and without ids', () => {
    const template: Template = {
      id: 9,
      project_id: 1,
      name: 'Build app',
      description: 'Builds',
      app: 'ansible',
      type: 'build',
      playbook: 'build.yml',
      inventory_id: 1,
      repository_id: 2,
      environment_id: 3,
      environment_ids: [3],
      view_id: 4,
      arguments: '["-v"]',
      allow_override_args_in_task: true,
      allow_override_branch_in_task: false,
      allow_parallel_tasks: false,
      suppress_success_alerts: true,
      start_version: '1.0.0',
      build_template_id: null,
      autorun: false,
      git_branch: null,
      survey_vars: [
        makeSurveyVar({
          name: 'region',
          title: 'Region',
          type: 'enum',
          required: true,
          values: [{ name: 'EU', value: 'eu' }],
        }),
      ],
      vaults: [{ id: 31, name: 'prod', type: 'password', vault_key_id: 6, script: '' }],
      task_params: { diff: true },
      approval: {
        approvers: { user_ids: [5], roles: ['manager'] },
        required: 2,
        starter_may_approve: true,
        timeout_seconds: 600,
        on_timeout: 'approve',
      },
      retries: 3,
      retry_delay_seconds: 45,
      runner_tag: null,
      tasks: 3,
      last_task: null,
      last_task_id: null,
    };
    const body = toCopyBody(template, 'Build app (copy)');
    expect(body).toMatchObject({
      name: 'Build app (copy)',
      type: 'build',
      start_version: '1.0.0',
      view_id: 4,
      arguments: '["-v"]',
      task_params: { diff: true },
    });
    expect(body.vaults).toEqual([{ name: 'prod', type: 'password', vault_key_id: 6, script: '' }]);
    expect(body.approval).toEqual(template.approval);
    expect(body).toMatchObject({ retries: 3, retry_delay_seconds: 45 });
    expect(body).not.toHaveProperty('id');
    expect(
      TemplateFormSchema.safeParse(getTemplateFormDefaults({ app: 'ansible', template: { ...template, name: 'x' } }))
        .success,
    ).toBe(true);
  });

  it('sends the approval gate only when switched on, and lets the contract refuse bad numbers', () => {
    const defaults = getTemplateFormDefaults({ app: 'bash' });
    expect(toTemplateBody(defaults).approval).toBeNull();
    const gated = {
      ...defaults,
      approval: { ...defaults.approval, enabled: true, roles: ['manager' as const], required: ' 2 ' },
    };
    expect(toTemplateBody(gated).approval).toEqual({
      approvers: { user_ids: [], roles: ['manager'] },
      required: 2,
      timeout_seconds: 86400,
      on_timeout: 'reject',
      starter_may_approve: false,
    });
    const bad = TemplateFormSchema.safeParse({
      ...gated,
      name: 'x',
      repository_id: 1,
      environment_id: 1,
      playbook: 'a.sh',
      approval: { ...gated.approval, required: 'two' },
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((issue) => issue.path.join('.'))).toContain('approval.required');
  });
});
