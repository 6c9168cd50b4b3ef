import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '@gantry/contract';
import {
  checkDraft,
  connectSteps,
  emptyDefinition,
  formToStep,
  missingRunValues,
  newStepForm,
  nextStepKey,
  removeStep,
  runFormValues,
  saveStep,
  stepToForm,
} from './workflow-draft.ts';

const definition = (): WorkflowDefinition => ({
  ...emptyDefinition(),
  name: 'Release',
  steps: [
    {
      key: 'build',
      name: '',
      join: 'all',
      kind: 'template',
      template_id: 1,
      inventory_id: null,
      environment_id: null,
      survey_values: {},
      params: { debug: true },
      inputs: [],
      outputs: ['artifact'],
    },
    {
      key: 'deploy',
      name: '',
      join: 'all',
      kind: 'template',
      template_id: 2,
      inventory_id: null,
      environment_id: null,
      survey_values: {},
      params: {},
      inputs: [{ variable: 'file', source: 'output', step: 'build', output: 'artifact' }],
      outputs: [],
    },
  ],
  edges: [{ from: 'build', to: 'deploy', on: 'success' }],
});

describe('step form mapping', () => {
  it('maps a wait form to a wait step and back', () => {
    const form = { ...newStepForm(emptyDefinition(), 'wait'), seconds: '5', join: 'any' as const };
    const result = formToStep(form);
    expect(result.error).toBeUndefined();
    expect(result.step).toEqual({ key: 'wait_1', name: '', join: 'any', kind: 'wait', seconds: 5 });
    if (result.step) expect(stepToForm(result.step)).toMatchObject({ kind: 'wait', seconds: '5', join: 'any' });
  });

  it('maps an approval form with its approvers, required count and timeout', () => {
    const form = {
      ...newStepForm(emptyDefinition(), 'approval'),
      approval: {
        user_ids: [3, 4],
        roles: ['manager' as const],
        required: '2',
        timeout_seconds: '3600',
        on_timeout: 'approve' as const,
        starter_may_approve: true,
      },
    };
    const result = formToStep(form);
    expect(result.step).toMatchObject({
      kind: 'approval',
      approvers: { user_ids: [3, 4], roles: ['manager'] },
      required: 2,
      timeout_seconds: 3600,
      on_timeout: 'approve',
      starter_may_approve: true,
    });
  });

  it("keeps a template step's hidden fields and drops empty survey values", () => {
    const [build] = definition().steps;
    if (!build) throw new Error('no step');
    const form = { ...stepToForm(build), survey_values: { ref: 'main', empty: '' }, inventory_id: 7 };
    const result = formToStep(form, build);
    expect(result.step).toMatchObject({
      kind: 'template',
      template_id: 1,
      inventory_id: 7,
      survey_values: { ref: 'main' },
      params: { debug: true },
      outputs: ['artifact'],
    });
  });

  it('maps template variables taken from workflow variables to inputs, keeping inputs from outputs', () => {
    const deploy = definition().steps[1];
    if (!deploy) throw new Error('no step');
    const form = stepToForm(deploy);
    expect(form.variable_inputs).toEqual({});
    const result = formToStep(
      { ...form, survey_values: { ref: 'main', tag: 'ignored' }, variable_inputs: { tag: 'version', ref: '' } },
      deploy,
    );
    expect(result.step).toMatchObject({
      survey_values: { ref: 'main' },
      inputs: [
        { variable: 'file', source: 'output', step: 'build', output: 'artifact' },
        { variable: 'tag', source: 'variable', name: 'version' },
      ],
    });
    if (result.step) expect(stepToForm(result.step).variable_inputs).toEqual({ tag: 'version' });
  });

  it('refuses a template step without template, a bad key and a wait out of range', () => {
    expect(formToStep(newStepForm(emptyDefinition(), 'template')).error).toBeDefined();
    expect(formToStep({ ...newStepForm(emptyDefinition(), 'wait'), key: '1bad' }).error).toMatch(/Step key/);
    expect(formToStep({ ...newStepForm(emptyDefinition(), 'wait'), seconds: '0' }).error).toMatch(/Wait must be/);
  });
});

describe('editing the definition', () => {
  it('numbers new keys past the ones in use', () => {
    const draft = {
      ...definition(),
      steps: [
        ...definition().steps,
        { key: 'wait_1', name: '', join: 'all' as const, kind: 'wait' as const, seconds: 1 },
      ],
    };
    expect(nextStepKey(draft, 'wait')).toBe('wait_2');
    expect(nextStepKey(draft, 'approval')).toBe('approval_1');
  });

  it('renames a step in its edges and in the inputs that read its outputs', () => {
    const draft = definition();
    const [build] = draft.steps;
    if (!build) throw new Error('no step');
    const renamed = saveStep(draft, { ...build, key: 'compile' }, 'build');
    expect(renamed.steps.map((step) => step.key)).toEqual(['compile', 'deploy']);
    expect(renamed.edges).toEqual([{ from: 'compile', to: 'deploy', on: 'success' }]);
    const deploy = renamed.steps[1];
    expect(deploy?.kind === 'template' ? deploy.inputs[0] : undefined).toMatchObject({ step: 'compile' });
    expect(checkDraft(renamed)).toEqual([]);
  });

  it('removes a step with its edges, and connecting again changes the edge kind', () => {
    expect(removeStep(definition(), 'build').edges).toEqual([]);
    const changed = connectSteps(definition(), { from: 'build', to: 'deploy', on: 'always' });
    expect(changed.edges).toEqual([{ from: 'build', to: 'deploy', on: 'always' }]);
  });

  it('reports schema and graph problems of a draft', () => {
    expect(checkDraft(emptyDefinition())).toEqual(expect.arrayContaining(['A workflow needs at least one step']));
    const cyclic = connectSteps(definition(), { from: 'deploy', to: 'build', on: 'failure' });
    expect(checkDraft(cyclic)).toEqual(expect.arrayContaining([expect.stringMatching(/cycle/)]));
  });
});

describe('run form', () => {
  it('starts with the defaults and names required variables left empty', () => {
    const variables = [
      { name: 'version', title: '', description: '', required: true, default_value: '' },
      { name: 'env', title: '', description: '', required: false, default_value: 'prod' },
    ];
    const values = runFormValues(variables);
    expect(values).toEqual({ version: '', env: 'prod' });
    expect(missingRunValues(variables, values)).toEqual(['version']);
    expect(missingRunValues(variables, { ...values, version: '1.2' })).toEqual([]);
  });
});
