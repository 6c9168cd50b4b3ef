import type { Template, TaskWithTemplate } from '@gantry/contract';

/** A task as the API returns it, with the fields a test cares about overridden. */
export function makeTask(id: number, fields: Partial<TaskWithTemplate> = {}): TaskWithTemplate {
  return {
    id,
    template_id: 3,
    project_id: 1,
    status: 'waiting',
    user_id: 1,
    integration_id: null,
    schedule_id: null,
    message: '',
    commit_hash: null,
    commit_message: '',
    build_task_id: null,
    version: null,
    created: '2026-01-01T00:00:00Z',
    start: null,
    end: null,
    environment: '{}',
    arguments: null,
    git_branch: null,
    inventory_id: null,
    params: {},
    playbook: '',
    runner_id: null,
    location: 'queue',
    debug: false,
    dry_run: false,
    diff: false,
    limit: '',
    secret: '',
    host_recap: null,
    rerun_of_task_id: null,
    needs_approval: false,
    plan_recap: null,
    retry_of_task_id: null,
    retry_attempt: 0,
    retry_limit: 0,
    tpl_alias: 'Deploy site',
    tpl_playbook: 'run.sh',
    tpl_type: '',
    tpl_app: 'bash',
    user_name: 'Ada Admin',
    build_task: null,
    workflow_run: null,
    ...fields,
  };
}

/** A template as the API returns it. */
export function makeTemplate(id: number, fields: Partial<Template> = {}): Template {
  return {
    id,
    project_id: 1,
    name: 'Deploy site',
    description: '',
    app: 'bash',
    type: '',
    playbook: 'run.sh',
    inventory_id: null,
    repository_id: 1,
    environment_id: 1,
    environment_ids: [1],
    view_id: null,
    arguments: null,
    allow_override_args_in_task: false,
    allow_override_branch_in_task: false,
    allow_parallel_tasks: false,
    suppress_success_alerts: false,
    start_version: null,
    build_template_id: null,
    autorun: false,
    git_branch: null,
    survey_vars: [],
    vaults: [],
    task_params: {},
    approval: null,
    retries: 0,
    retry_delay_seconds: 0,
    runner_tag: null,
    tasks: 0,
    last_task: null,
    last_task_id: null,
    ...fields,
  };
}

type SurveyVar = Template['survey_vars'][number];

/** A template's survey variable: optional, free text and empty but for the fields given. */
export function makeSurveyVar(fields: Partial<SurveyVar> & Pick<SurveyVar, 'name' | 'title'>): SurveyVar {
  return { description: '', type: '', required: false, values: [], default_value: '', ...fields };
}

/** A survey of the kinds a task form checks: a required choice, an optional integer and a required secret. */
export function makeSurvey(): SurveyVar[] {
  return [
    makeSurveyVar({
      name: 'region',
      title: 'Region',
      type: 'enum',
      required: true,
      values: [{ name: 'Europe', value: 'eu' }],
    }),
    makeSurveyVar({ name: 'count', title: 'Count', type: 'int' }),
    makeSurveyVar({ name: 'token', title: 'Token', type: 'secret', required: true }),
  ];
}
