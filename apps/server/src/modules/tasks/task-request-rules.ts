import type { CreateTaskBody, Template } from '@gantry/contract';
import { CLI_ARGS_INVALID, findSurveyAnswerProblem, isJsonStringArray } from '@gantry/contract';
import type { z } from 'zod';
import { validationFailed } from '../../errors.ts';
import { TEMPLATE_EXPRESSION, checkHostPatterns, deniedVariable, isDeniedVariable, textsOf } from './ansible-values.ts';
import { checkTaskArguments } from './task-cli-arguments.ts';

type CreateTaskInput = z.output<typeof CreateTaskBody>;

/** Params a task may set, by app: switches are harmless anywhere, host patterns only mean something to ansible. */
const SWITCH_PARAMS = ['debug', 'dry_run', 'diff', 'plan', 'destroy', 'auto_approve', 'upgrade', 'reconfigure'];
const ANSIBLE_LIST_PARAMS = ['limit', 'tags', 'skip_tags'];

function offersParam(app: string, name: string): boolean {
  return SWITCH_PARAMS.includes(name) || (app === 'ansible' && ANSIBLE_LIST_PARAMS.includes(name));
}

const onlyManagers = 'only members who manage the project resources can set it';

export interface TaskRequester {
  /** Holds manageProjectResources: may edit the template anyway, so may pass what it does not offer. */
  canManage: boolean;
  /** The values come from outside the team (a webhook caller's payload), whoever set up the mapping. */
  fromOutside?: boolean;
}

/** Expressions are the template's to write: a task runner, or a webhook caller's payload, may not send them. */
function refusesExpressions(requester: TaskRequester): boolean {
  return !requester.canManage || requester.fromOutside === true;
}

export interface TaskRequestRulesDeps {
  /** Whether a task of the template already ran the commit. */
  hasRunCommit(projectId: number, templateId: number, commitHash: string): Promise<boolean>;
}

export interface CheckedTaskRequest {
  /** The CLI arguments to store: null when none came or the template ignores them. */
  arguments: string | null;
  /** Arguments came but the template does not allow overriding them, so they were dropped. */
  argumentsIgnored: boolean;
}

/**
 * What a task request may set. Everyone: answers that fit the survey, secrets only in `secret`,
 * no connection or interpreter variables. Without manageProjectResources: only what the template
 * offers (its survey variables, its params, a branch or inventory when it lets one be chosen).
 */
export function createTaskRequestRules(deps: TaskRequestRulesDeps) {
  function checkVariables(
    template: Template,
    environment: Record<string, unknown>,
    secret: Record<string, unknown>,
    requester: TaskRequester,
  ): void {
    for (const name of [...Object.keys(environment), ...Object.keys(secret)])
      if (isDeniedVariable(name)) throw deniedVariable(name);
    const problem = findSurveyAnswerProblem(template.survey_vars, { environment, secret });
    if (problem) throw validationFailed(problem.message);
    if (template.app === 'ansible' && refusesExpressions(requester)) {
      for (const [name, value] of [...Object.entries(environment), ...Object.entries(secret)]) {
        if (textsOf(value, `Variable "${name}"`).some((text) => TEMPLATE_EXPRESSION.test(text)))
          throw validationFailed(`Variable "${name}" cannot hold a template expression ({{ }}, {% %} or {# #})`);
      }
    }
    if (requester.canManage) return;
    const plain = new Set(template.survey_vars.filter((v) => v.type !== 'secret').map((v) => v.name));
    const secrets = new Set(template.survey_vars.filter((v) => v.type === 'secret').map((v) => v.name));
    for (const name of Object.keys(environment)) {
      if (!plain.has(name))
        throw validationFailed(
          `Variable "${name}" in environment is not a survey variable of this template; ${onlyManagers}`,
        );
    }
    for (const name of Object.keys(secret)) {
      if (!secrets.has(name))
        throw validationFailed(`Secret "${name}" is not a secret survey variable of this template; ${onlyManagers}`);
    }
  }

  async function checkChoices(projectId: number, template: Template, body: CreateTaskInput): Promise<void> {
    for (const name of Object.keys(body.params)) {
      if (!offersParam(template.app, name))
        throw validationFailed(`Task parameter "${name}" is not offered by this template; ${onlyManagers}`);
    }
    if (body.limit?.trim() && !offersParam(template.app, 'limit'))
      throw validationFailed(`Task parameter "limit" is not offered by this template; ${onlyManagers}`);
    const branch = body.git_branch?.trim();
    if (branch && !template.allow_override_branch_in_task && branch !== template.git_branch) {
      throw validationFailed('git_branch: this template does not allow choosing the branch');
    }
    const allowsInventory = template.task_params?.allow_override_inventory === true;
    if (body.inventory_id && !allowsInventory && body.inventory_id !== template.inventory_id) {
      throw validationFailed('inventory_id: this template does not allow choosing the inventory');
    }
    const playbook = body.playbook?.trim();
    if (playbook && playbook !== template.playbook)
      throw validationFailed(`playbook: the task cannot replace the template's playbook; ${onlyManagers}`);
    if (
      body.commit_hash &&
      !template.allow_override_branch_in_task &&
      !(await deps.hasRunCommit(projectId, template.id, body.commit_hash))
    ) {
      throw validationFailed(
        'commit_hash: a task may only pin a commit this template has already run, unless the template allows choosing the branch',
      );
    }
  }

  function checkArguments(template: Template, body: CreateTaskInput, requester: TaskRequester): CheckedTaskRequest {
    if (body.arguments === null) return { arguments: null, argumentsIgnored: false };
    // Semaphore drops them silently; the task's log says so here.
    if (!template.allow_override_args_in_task) return { arguments: null, argumentsIgnored: true };
    if (!isJsonStringArray(body.arguments)) throw validationFailed(CLI_ARGS_INVALID);
    // A webhook's arguments are its integration's, which a manager wrote; its caller reaches only values and params.
    checkTaskArguments(template.app, JSON.parse(body.arguments) as string[], !requester.canManage);
    return { arguments: body.arguments, argumentsIgnored: false };
  }

  return {
    /** Throws a 400 naming the first field the requester may not set; returns what to store. */
    async check(
      projectId: number,
      template: Template,
      body: CreateTaskInput,
      answers: { environment: Record<string, unknown>; secret: Record<string, unknown> },
      requester: TaskRequester,
    ): Promise<CheckedTaskRequest> {
      checkVariables(template, answers.environment, answers.secret, requester);
      if (refusesExpressions(requester))
        for (const pattern of [...(body.params.limit ?? []), body.limit ?? ''])
          checkHostPatterns(pattern, 'Task parameter "limit"');
      if (!requester.canManage) await checkChoices(projectId, template, body);
      return checkArguments(template, body, requester);
    },
  };
}
