import { WorkflowDefinition, type WorkflowBody } from '@gantry/contract';
import { describe, expect, it } from 'vitest';
import { checkWorkflow, type ProjectCatalog } from '../src/modules/workflows/workflow-checks.ts';
import { validateWorkflowGraph } from '@gantry/contract';

const parse = (body: WorkflowBody) => WorkflowDefinition.parse(body);
const graphErrors = (body: WorkflowBody) => validateWorkflowGraph(parse(body));
const run = (key: string, extra: object = {}) => ({ key, kind: 'template' as const, template_id: 1, ...extra });

describe('workflow graph rules', () => {
  it('accepts a chain with success, failure and always edges and joins', () => {
    expect(
      graphErrors({
        name: 'w',
        steps: [run('build'), run('test'), { key: 'cleanup', kind: 'wait', seconds: 5, join: 'any' }],
        edges: [
          { from: 'build', to: 'test', on: 'success' },
          { from: 'build', to: 'cleanup', on: 'failure' },
          { from: 'test', to: 'cleanup', on: 'always' },
        ],
      }),
    ).toEqual([]);
  });

  it('names the steps of a cycle in order', () => {
    expect(
      graphErrors({
        name: 'w',
        steps: [run('start'), run('a'), run('b'), run('c')],
        edges: [
          { from: 'start', to: 'a', on: 'success' },
          { from: 'a', to: 'b', on: 'success' },
          { from: 'b', to: 'c', on: 'success' },
          { from: 'c', to: 'a', on: 'failure' },
        ],
      }),
    ).toEqual(['Steps form a cycle: a → b → c → a']);
  });

  it('finds a cycle even in a chain too long for recursion', () => {
    const steps = Array.from({ length: 100 }, (_, i) => run(`s${i}`));
    const edges = steps.slice(1).map((s, i) => ({ from: `s${i}`, to: s.key, on: 'success' as const }));
    expect(graphErrors({ name: 'w', steps, edges })).toEqual([]);
    expect(graphErrors({ name: 'w', steps, edges: [...edges, { from: 's99', to: 's50', on: 'always' }] })).toEqual([
      `Steps form a cycle: ${Array.from({ length: 50 }, (_, i) => `s${i + 50}`).join(' → ')} → s50`,
    ]);
  });

  it('refuses edges to missing steps, self edges, repeated edges and keys', () => {
    expect(
      graphErrors({
        name: 'w',
        steps: [run('a'), run('a'), run('b')],
        edges: [
          { from: 'a', to: 'ghost', on: 'success' },
          { from: 'b', to: 'b', on: 'success' },
          { from: 'a', to: 'b', on: 'success' },
          { from: 'a', to: 'b', on: 'failure' },
        ],
      }),
    ).toEqual([
      'Step key "a" is used more than once',
      'Edge a → ghost ends at step "ghost", which does not exist',
      'Edge b → b connects a step to itself',
      'Edge a → b is declared more than once',
    ]);
  });

  it('needs a start step: two steps waiting on each other are a cycle', () => {
    expect(
      graphErrors({
        name: 'w',
        steps: [run('a'), run('b')],
        edges: [
          { from: 'a', to: 'b', on: 'success' },
          { from: 'b', to: 'a', on: 'success' },
        ],
      }),
    ).toEqual(['Steps form a cycle: a → b → a']);
  });

  it('checks inputs: declared variables, outputs of upstream steps only', () => {
    const errors = graphErrors({
      name: 'w',
      variables: [{ name: 'version' }],
      steps: [
        run('build', { outputs: ['artifact'] }),
        run('side', { outputs: ['other'] }),
        run('deploy', {
          inputs: [
            { variable: 'v', source: 'variable', name: 'version' },
            { variable: 'a', source: 'output', step: 'build', output: 'artifact' },
            { variable: 'b', source: 'output', step: 'side', output: 'other' },
            { variable: 'c', source: 'output', step: 'build', output: 'missing' },
            { variable: 'd', source: 'variable', name: 'undeclared' },
            { variable: 'a', source: 'variable', name: 'version' },
          ],
        }),
      ],
      edges: [{ from: 'build', to: 'deploy', on: 'success' }],
    });
    expect(errors).toEqual([
      'Step "deploy", input "b": step "side" is not upstream of this step',
      'Step "deploy", input "c": step "build" does not declare the output "missing"',
      'Step "deploy", input "d": workflow variable "undeclared" is not declared',
      'Step "deploy", input "a" is mapped more than once',
    ]);
  });

  it('checks approvals: at least one approver, N of M with M the listed users', () => {
    const approval = (approvers: object, required: number) => ({
      key: 'ok',
      kind: 'approval' as const,
      approvers,
      required,
    });
    expect(graphErrors({ name: 'w', steps: [approval({}, 1)] })).toEqual([
      'Approval step "ok" needs at least one approver',
    ]);
    expect(graphErrors({ name: 'w', steps: [approval({ user_ids: [1, 2] }, 3)] })).toEqual([
      'Approval step "ok" requires 3 approvals but lists only 2 approvers',
    ]);
    expect(graphErrors({ name: 'w', steps: [approval({ user_ids: [1, 2] }, 2)] })).toEqual([]);
    expect(graphErrors({ name: 'w', steps: [approval({ roles: ['manager'] }, 3)] })).toEqual([]);
  });

  it('bounds every number and name in the schema with clear messages', () => {
    const issues = (body: unknown) => WorkflowDefinition.safeParse(body).error?.issues.map((i) => i.message) ?? [];
    expect(issues({ name: 'w', steps: [] })).toEqual(['A workflow needs at least one step']);
    expect(issues({ name: 'w', steps: [{ key: 'a', kind: 'wait', seconds: 0 }] })).toEqual([
      'Wait must be 1 to 604800 seconds',
    ]);
    expect(issues({ name: 'w', steps: [{ key: 'a', kind: 'template', template_id: 2 ** 31 }] })).toEqual([
      'Template not found in this project',
    ]);
    expect(issues({ name: 'w', steps: [{ key: 'a b', kind: 'wait', seconds: 1 }] })).toEqual([
      'Step key must start with a letter or _ and hold at most 64 letters, digits, _ or -',
    ]);
    expect(issues({ name: 'w', steps: [{ key: 'a', kind: 'shell' }] })).toEqual([
      'Step kind must be "template", "approval" or "wait"',
    ]);
    expect(
      issues({ name: 'w', steps: [{ key: 'a', kind: 'approval', approvers: { user_ids: [1] }, required: 101 }] }),
    ).toEqual(['Required approvals must be 1 to 100']);
  });
});

describe('workflow checks against the project', () => {
  const catalog: ProjectCatalog = {
    templates: [
      {
        id: 1,
        name: 'Build',
        survey_vars: [{ name: 'ref', type: '' } as never, { name: 'password', type: 'secret' } as never],
      },
    ],
    inventories: [{ id: 5, name: 'Hosts' }],
    environments: [{ id: 6, name: 'Vars' }],
    members: [
      { user_id: 10, username: 'ann', role: 'manager' },
      { user_id: 11, username: 'bob', role: 'task_runner' },
      { user_id: 12, username: 'gus', role: 'guest' },
    ],
  };
  const RUN = 1;

  it('refuses missing templates, inventories, variable groups and survey variables the template lacks', () => {
    const definition = parse({
      name: 'w',
      steps: [
        run('a', { inventory_id: 7, environment_id: 6, survey_values: { ref: 'main', other: 'x' } }),
        { key: 'b', kind: 'template', template_id: 2 },
      ],
    });
    expect(checkWorkflow(definition, catalog, RUN)).toEqual([
      'Step "a": inventory 7 not found in this project',
      'Step "a": template "Build" has no survey variable "other"',
      'Step "b": template 2 not found in this project',
    ]);
  });

  it('needs the right to run tasks to save a step that runs a template', () => {
    expect(checkWorkflow(parse({ name: 'w', steps: [run('a')] }), catalog, 0)).toEqual([
      'Step "a": you may not run template "Build"',
    ]);
  });

  it('counts the members holding approver roles as M, and refuses approvers who are not members', () => {
    const approval = (approvers: object, required: number) =>
      parse({ name: 'w', steps: [{ key: 'ok', kind: 'approval', approvers, required }] });
    expect(checkWorkflow(approval({ roles: ['manager', 'task_runner'] }, 2), catalog, RUN)).toEqual([]);
    expect(checkWorkflow(approval({ roles: ['manager'], user_ids: [10] }, 2), catalog, RUN)).toEqual([
      'Step "ok" requires 2 approvals but only 1 members can approve',
    ]);
    expect(checkWorkflow(approval({ user_ids: [10, 99] }, 1), catalog, RUN)).toEqual([
      'Step "ok": approvers 99 are not members of this project who may approve',
    ]);
  });

  it('counts no guest as an approver, by id or by role: a gate only guests could decide would never open', () => {
    const approval = (approvers: object, required: number) =>
      parse({ name: 'w', steps: [{ key: 'ok', kind: 'approval', approvers, required }] });
    expect(checkWorkflow(approval({ user_ids: [12] }, 1), catalog, RUN)).toEqual([
      'Step "ok": approvers 12 are not members of this project who may approve',
    ]);
    expect(checkWorkflow(approval({ roles: ['guest'] }, 1), catalog, RUN)).toEqual([
      'Step "ok" requires 1 approvals but only 0 members can approve',
    ]);
  });

  it('refuses to pass a secret survey variable, which would be stored in the clear with the workflow', () => {
    const definition = parse({
      name: 'w',
      variables: [{ name: 'p' }],
      steps: [run('a', { inputs: [{ variable: 'password', source: 'variable', name: 'p' }] })],
    });
    expect(checkWorkflow(definition, catalog, RUN)).toEqual([
      'Step "a": survey variable "password" of template "Build" is a secret, which a workflow cannot pass',
    ]);
  });
});
