import type { WorkflowStepRunStatus } from '@gantry/contract';
import { describe, expect, it } from 'vitest';
import { planRetry } from '../src/modules/workflows/workflow-run-retry.ts';
import type { WorkflowApprovalRow, WorkflowStepRunRow } from '../src/modules/workflows/workflows.table.ts';

// build → test → deploy, and build → notify on failure; "gate" stands alone.
const edges = [
  { from: 'build', to: 'test', on: 'success' as const },
  { from: 'test', to: 'deploy', on: 'success' as const },
  { from: 'build', to: 'notify', on: 'failure' as const },
];

let nextId = 1;
const step = (step_key: string, status: WorkflowStepRunStatus, extra: Partial<WorkflowStepRunRow> = {}) => ({
  id: nextId++,
  run_id: 7,
  project_id: 1,
  step_key,
  kind: 'template' as const,
  status,
  task_id: status === 'pending' ? null : nextId + 100,
  due: null,
  message: '',
  start: status === 'pending' ? null : '2026-11-29T10:00:00.000Z',
  end: status === 'pending' ? null : '2026-11-29T10:01:00.000Z',
  approval_alert: null,
  outputs: null,
  ...extra,
});

const decision = (step_key: string): WorkflowApprovalRow => ({
  id: nextId++,
  run_id: 7,
  project_id: 1,
  step_key,
  user_id: 3,
  username: 'ana',
  decision: 'approve',
  reason: 'fine',
  created: '2026-11-29T10:00:30.000Z',
});

const plan = (steps: WorkflowStepRunRow[], stepKey: string | null, decisions: WorkflowApprovalRow[] = []) =>
  planRetry({ edges }, { id: 7 }, { steps, decisions, stepKey });
const statuses = (result: ReturnType<typeof plan>) =>
  Object.fromEntries(result.steps.map((s) => [s.step_key, s.status ?? 'pending']));

describe('planning the retry of a workflow run', () => {
  it('runs again every failed step and everything downstream, and keeps the rest with their results', () => {
    const steps = [
      step('build', 'success', { outputs: '{"version":"1.2"}', message: 'Task success' }),
      step('test', 'failed'),
      step('deploy', 'skipped'),
      step('notify', 'skipped'),
      step('gate', 'success', { kind: 'approval' }),
    ];
    const result = plan(steps, null, [decision('gate'), decision('test')]);
    expect(statuses(result)).toEqual({
      build: 'success',
      test: 'pending',
      deploy: 'pending',
      notify: 'pending',
      gate: 'success',
    });
    const build = result.steps.find((s) => s.step_key === 'build');
    expect(build).toMatchObject({
      task_id: steps[0]?.task_id,
      outputs: '{"version":"1.2"}',
      message: 'Kept from run 7: Task success',
    });
    // Only the kept approval step's decision goes with it.
    expect(result.decisions.map((d) => d.step_key)).toEqual(['gate']);
    expect(result.decisions[0]).not.toHaveProperty('run_id');
  });

  it('runs again a chosen stopped step and what follows it, keeping a failed step it does not lead to', () => {
    const result = plan(
      [step('build', 'success'), step('test', 'stopped'), step('deploy', 'pending'), step('gate', 'failed')],
      'test',
    );
    expect(statuses(result)).toEqual({ build: 'success', test: 'pending', deploy: 'pending', gate: 'failed' });
  });

  it('refuses a step that neither failed nor was stopped, an unknown step, and a run with nothing to retry', () => {
    const steps = [step('build', 'success'), step('test', 'success')];
    expect(() => plan(steps, 'build')).toThrow('Step "build" did not fail and was not stopped');
    expect(() => plan(steps, 'nope')).toThrow('Workflow step');
    expect(() => plan(steps, null)).toThrow('The run has no failed or stopped step to retry');
  });

  it('cuts a long kept message to what the store holds', () => {
    const result = plan([step('build', 'success', { message: 'x'.repeat(2000) }), step('test', 'failed')], null);
    expect(result.steps[0]?.message).toHaveLength(1024);
  });
});
