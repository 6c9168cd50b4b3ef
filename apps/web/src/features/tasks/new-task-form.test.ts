import { describe, expect, it } from 'vitest';
import type { TaskWithTemplate } from '@gantry/contract';
import { buildTaskFormSchema, getInitialTaskValues, toCreateTaskBody } from './new-task-form.ts';
import type { TaskFormTemplate, TaskFormValues } from './new-task-form.ts';
import { makeSurvey, makeSurveyVar as variable } from '../../testing/task-fixtures.ts';

const template = (fields: Partial<TaskFormTemplate> = {}): TaskFormTemplate => ({
  id: 5,
  app: 'bash',
  type: '',
  survey_vars: [],
  allow_override_args_in_task: false,
  allow_override_branch_in_task: false,
  git_branch: null,
  task_params: {},
  build_template_id: null,
  ...fields,
});

const values = (fields: Partial<TaskFormValues> = {}): TaskFormValues => ({
  message: '',
  build_task_id: null,
  survey: [],
  params: {},
  args: [],
  git_branch: '',
  commit_hash: null,
  ...fields,
});

function errors(tpl: TaskFormTemplate, input: TaskFormValues): string[] {
  const result = buildTaskFormSchema(tpl).safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('survey validation', () => {
  const surveyed = template({
    survey_vars: [...makeSurvey(), variable({ name: 'note', title: 'Note' })],
  });

  it('requires the required variables with "<Title> is required"', () => {
    expect(
      errors(surveyed, values({ survey: [{ value: '' }, { value: '' }, { value: '  ' }, { value: '' }] })),
    ).toEqual(['survey.0.value: Region is required', 'survey.2.value: Token is required']);
  });

  it('accepts whole numbers in integer variables, as the server does, "Must be integer" otherwise', () => {
    const answers = (count: string) =>
      values({ survey: [{ value: 'eu' }, { value: count }, { value: 's' }, { value: '' }] });
    expect(errors(surveyed, answers('42'))).toEqual([]);
    expect(errors(surveyed, answers('-3'))).toEqual([]);
    expect(errors(surveyed, answers(''))).toEqual([]);
    for (const wrong of ['4.2', 'abc', '1e3', ' 7', '99999999999999999999'])
      expect(errors(surveyed, answers(wrong))).toEqual(['survey.1.value: Must be integer']);
  });

  it('refuses an enum value the template does not declare, as the server does', () => {
    expect(
      errors(surveyed, values({ survey: [{ value: 'us' }, { value: '' }, { value: 's' }, { value: '' }] })),
    ).toEqual(['survey.0.value: Region must be one of its values']);
  });

  it('requires a build version for deploy templates only', () => {
    expect(errors(template({ type: 'deploy' }), values())).toEqual(['build_task_id: Build version is required']);
    expect(errors(template({ type: 'deploy' }), values({ build_task_id: 3 }))).toEqual([]);
    expect(errors(template({ type: 'build' }), values())).toEqual([]);
  });

  it('speaks the translated messages it is given', () => {
    const schema = buildTaskFormSchema(surveyed, {
      required: (title) => `${title} fehlt`,
      mustBeInteger: 'Ganzzahl',
      notOneOfValues: (title) => `${title} unbekannt`,
      buildVersionRequired: 'Version',
    });
    const result = schema.safeParse(values({ survey: [{ value: '' }, { value: 'x' }, { value: 's' }, { value: '' }] }));
    expect(result.success ? [] : result.error.issues.map((issue) => issue.message)).toEqual([
      'Region fehlt',
      'Ganzzahl',
    ]);
  });
});

describe('request body', () => {
  it('sends survey answers as environment, secrets in secret, integers as numbers, and leaves empty ones out', () => {
    const tpl = template({
      survey_vars: [
        variable({ name: 'app.env', title: 'Env' }),
        variable({ name: 'count', title: 'Count', type: 'int' }),
        variable({ name: 'token', title: 'Token', type: 'secret' }),
      ],
    });
    const body = toCreateTaskBody(
      tpl,
      values({ message: ' hello ', survey: [{ value: 'prod' }, { value: '3' }, { value: 's3cret' }] }),
    );
    expect(body).toMatchObject({
      template_id: 5,
      message: 'hello',
      environment: '{"app.env":"prod","count":3}',
      secret: '{"token":"s3cret"}',
    });
    expect(body.arguments).toBeUndefined();
    expect(body.build_task_id).toBeUndefined();
    expect(
      JSON.parse(
        toCreateTaskBody(tpl, values({ survey: [{ value: '' }, { value: '' }, { value: '' }] })).environment ?? '',
      ),
    ).toEqual({});
  });

  it('sends CLI args as a JSON array only when the template allows overriding them', () => {
    expect(
      toCreateTaskBody(template({ allow_override_args_in_task: true }), values({ args: ['--limit', 'web 1'] }))
        .arguments,
    ).toBe('["--limit","web 1"]');
    expect(toCreateTaskBody(template(), values({ args: ['--x'] })).arguments).toBeUndefined();
  });

  it('sends the app options of ansible and terraform', () => {
    expect(
      toCreateTaskBody(template({ app: 'ansible' }), values({ params: { debug: true, diff: true } })).params,
    ).toEqual({ debug: true, dry_run: false, diff: true });
    expect(toCreateTaskBody(template({ app: 'tofu' }), values({ params: { plan: true } })).params).toEqual({
      plan: true,
      destroy: false,
      auto_approve: false,
      upgrade: false,
      reconfigure: false,
    });
  });
});

describe('re-run', () => {
  const source = {
    id: 9,
    message: 'again',
    environment: '{"region":"eu","count":4,"gone":"x"}',
    arguments: '["-v"]',
    params: { dry_run: true },
    commit_hash: 'abcdef1234567890',
    build_task_id: 3,
    git_branch: null,
    inventory_id: null,
  } as unknown as TaskWithTemplate;

  it('fills the form from the task, keeping declared variables and pinning its commit', () => {
    const tpl = template({
      app: 'ansible',
      survey_vars: [
        variable({ name: 'region', title: 'Region' }),
        variable({ name: 'count', title: 'Count', type: 'int' }),
        variable({ name: 'token', title: 'Token', type: 'secret', default_value: 'dflt' }),
      ],
    });
    const initial = getInitialTaskValues(tpl, source);
    expect(initial).toMatchObject({
      message: 'again',
      build_task_id: 3,
      args: ['-v'],
      commit_hash: 'abcdef1234567890',
      params: { debug: false, dry_run: true, diff: false },
    });
    expect(initial.survey).toEqual([{ value: 'eu' }, { value: '4' }, { value: '' }]);
    expect(toCreateTaskBody(tpl, initial, source).commit_hash).toBe('abcdef1234567890');
  });

  it('sends again only the params the app offers, so a task runner may re-run any task', () => {
    const rerun = {
      ...source,
      params: { dry_run: true, become: true, tags: ['web'], extra: 'x' },
    } as unknown as TaskWithTemplate;
    const ansible = template({ app: 'ansible', task_params: { tags: ['db'], limit: ['all'] } });
    expect(toCreateTaskBody(ansible, getInitialTaskValues(ansible, rerun), rerun).params).toEqual({
      debug: false,
      dry_run: true,
      diff: false,
      tags: ['web'],
      limit: ['all'],
    });
    const bash = template({ app: 'bash' });
    expect(toCreateTaskBody(bash, getInitialTaskValues(bash, rerun), rerun).params).toEqual({});
  });

  it('starts a new task from survey defaults', () => {
    const tpl = template({ survey_vars: [variable({ name: 'region', title: 'Region', default_value: 'us' })] });
    expect(getInitialTaskValues(tpl).survey).toEqual([{ value: 'us' }]);
  });
});
