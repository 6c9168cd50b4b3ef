import path from 'node:path';
import type { CreateTaskBody, Template } from '@gantry/contract';
import { CLI_ARGS_INVALID, HOST_LIMITS, findSurveyAnswerProblem, isJsonStringArray } from '@gantry/contract';
import type { z } from 'zod';
import { validationFailed } from '../../errors.ts';

type CreateTaskInput = z.output<typeof CreateTaskBody>;

/**
 * Variables that choose how or with what a task reaches its hosts, or what the controller executes:
 * an interpreter, a shell, a transport's own arguments (ProxyCommand...), a become program. Set
 * from a task they run any command on the Gantry host, so no task request may carry them, whoever
 * sends it; the inventory and the template are where they belong. The names that follow the
 * ansible ones hijack a process through its environment (secret answers of shell and pulumi
 * tasks become environment variables).
 */
const DENIED_VARIABLES: readonly RegExp[] = [
  /^ansible_.*interpreter$/,
  /^ansible_.*_exe(cutable)?$/,
  /^ansible_(connection|host|port|user|remote_user|password|pass|private_key_file|pipelining|shell_type|remote_tmp|module_compression|async_dir|timeout|network_os)$/,
  /^ansible_become/,
  /^ansible_(ssh|scp|sftp|paramiko|libssh|psrp|winrm|netconf|httpapi|docker|podman|kubectl|buildah|chroot|jail|zone|lxc|lxd|local|persistent)_/,
  /^ansible_(su|sudo|pbrun|pfexec|doas|dzdo|ksu|runas|machinectl|sesu)_/,
  /^(ld|dyld)_/,
  /^bash_(env|func_)/,
  /^(env|path|ifs|ps4|shellopts|bashopts|prompt_command|node_options|rubyopt|perl5opt|perl5lib|perllib|git_ssh|git_ssh_command|git_exec_path)$/,
  /^python[a-z]+$/,
];

/** How a variable name is compared: every spelling of one name (case, spaces, invisible characters) is the same name. */
function normalizeVariableName(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/[\s\p{Cf}]/gu, '')
    .toLowerCase();
}

function isDeniedVariable(name: string): boolean {
  const normalized = normalizeVariableName(name);
  return DENIED_VARIABLES.some((pattern) => pattern.test(normalized));
}

const deniedVariable = (name: string) =>
  validationFailed(
    `Variable "${name}" cannot be set from a task: connection and interpreter settings belong to the inventory or the template`,
  );

/** ansible-playbook options that pick the transport, the inventory or code the controller runs; argparse also takes their prefixes. */
const DENIED_ANSIBLE_LONG_OPTIONS = [
  '--connection',
  '--ssh-common-args',
  '--ssh-extra-args',
  '--scp-extra-args',
  '--sftp-extra-args',
  '--become-method',
  '--module-path',
  '--vault-password-file',
  '--vault-id',
  '--inventory',
  '--inventory-file',
];
/** Options of their own that are also prefixes of a denied one. */
const ALLOWED_ANSIBLE_LONG_OPTIONS = new Set(['--become']);
const DENIED_ANSIBLE_SHORT_OPTIONS = new Set(['c', 'i', 'M']);
const ANSIBLE_SHORT_OPTIONS_WITH_VALUE = new Set(['c', 'e', 'f', 'i', 'l', 'M', 't', 'T', 'u']);

/**
 * Names in an --extra-vars value (key=value pairs, JSON or YAML): every word that could be a key is
 * checked. Its values are extra variables like the environment's, so the same expression rule holds.
 */
function checkExtraVarsText(text: string, untrusted: boolean): void {
  for (const word of text.match(/[\p{L}\p{N}_]+/gu) ?? []) if (isDeniedVariable(word)) throw deniedVariable(word);
  if (!untrusted) return;
  if (TEMPLATE_EXPRESSION.test(text))
    throw validationFailed('CLI argument --extra-vars cannot hold a template expression ({{ }}, {% %} or {# #})');
  // `@file` loads variables from a file of the server's, which a task runner has no business reading.
  if (text.trimStart().startsWith('@')) throw validationFailed('CLI argument --extra-vars cannot load a file (@…)');
}

/**
 * A host pattern (--limit) element that starts with `@` makes ansible read that file as a list of
 * hosts and print every line it cannot match: any file of the server's would land in the task's log.
 * Elements are separated by commas or colons; `!` and `&` may lead one.
 */
function checkHostPatterns(text: string, source: string): void {
  for (const element of text.split(/[,:]/)) {
    if (
      element
        .trim()
        .replace(/^[!&]+/, '')
        .startsWith('@')
    )
      throw validationFailed(`${source} cannot read hosts from a file (@…)`);
  }
}

/**
 * Whether a host name can go into --limit as it is and name exactly that host. Host pattern syntax would
 * widen or redirect it: `,` and `:` separate patterns, a leading `!`, `&`, `~` or `@` negates,
 * intersects, starts a regular expression or reads a file, and `*`, `?`, `[`, `]` match other hosts.
 */
export function isExactHostName(name: string): boolean {
  return (
    name.length > 0 && name.length <= HOST_LIMITS.nameLength && !/[\s\p{C},:*?[\]]/u.test(name) && !/^[!&~@]/.test(name)
  );
}

/**
 * A word that names a file outside the checkout: ansible-playbook takes extra words as more
 * playbooks, so `/srv/other-project/site.yml` or `../../x.yml` would run another project's code.
 */
function leavesCheckout(word: string): boolean {
  return path.isAbsolute(word) || word.split(/[\\/]/).includes('..');
}

/** Task CLI arguments of an ansible template must not carry, under another spelling, what variables may not. */
function checkAnsibleArguments(args: readonly string[], untrusted: boolean): void {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const next = args[i + 1] ?? '';
    const value = arg.startsWith('-') ? arg.slice(arg.indexOf('=') + 1 || arg.length) : arg;
    if (untrusted && leavesCheckout(value))
      throw validationFailed(`CLI argument ${arg} names a file outside the repository`);
    if (arg.startsWith('--')) {
      const [name = '', ...rest] = arg.split('=');
      if (name.length < 3 || ALLOWED_ANSIBLE_LONG_OPTIONS.has(name)) continue;
      const denied = DENIED_ANSIBLE_LONG_OPTIONS.find((option) => option.startsWith(name));
      if (denied)
        throw validationFailed(
          `CLI argument ${denied} cannot be passed to a task: the template and its inventory set it`,
        );
      const optionValue = rest.length > 0 ? rest.join('=') : next;
      if ('--extra-vars'.startsWith(name)) checkExtraVarsText(optionValue, untrusted);
      if (untrusted && '--limit'.startsWith(name)) checkHostPatterns(optionValue, 'CLI argument --limit');
    } else if (arg.startsWith('-')) {
      // Short flags combine (-vvc local) and a value may follow its letter directly (-clocal).
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j] ?? '';
        if (DENIED_ANSIBLE_SHORT_OPTIONS.has(letter))
          throw validationFailed(
            `CLI argument -${letter} cannot be passed to a task: the template and its inventory set it`,
          );
        const letterValue = j + 1 < arg.length ? arg.slice(j + 1) : next;
        if (letter === 'e') checkExtraVarsText(letterValue, untrusted);
        if (untrusted && letter === 'l') checkHostPatterns(letterValue, 'CLI argument -l');
        if (ANSIBLE_SHORT_OPTIONS_WITH_VALUE.has(letter)) break;
      }
    }
  }
}

/** Params a task may set, by app: switches are harmless anywhere, host patterns only mean something to ansible. */
const SWITCH_PARAMS = ['debug', 'dry_run', 'diff', 'plan', 'destroy', 'auto_approve', 'upgrade', 'reconfigure'];
const ANSIBLE_LIST_PARAMS = ['limit', 'tags', 'skip_tags'];

function offersParam(app: string, name: string): boolean {
  return SWITCH_PARAMS.includes(name) || (app === 'ansible' && ANSIBLE_LIST_PARAMS.includes(name));
}

/** Ansible renders `{{ }}` in extra variables, and a lookup in there runs commands on the controller. */
const TEMPLATE_EXPRESSION = /\{\{|\{%|\{#/;

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

/** Whether a value, or any string nested in it, holds a template expression. */
function holdsTemplateExpression(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return TEMPLATE_EXPRESSION.test(value);
  if (depth > 64 || typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(
    ([key, item]) => TEMPLATE_EXPRESSION.test(key) || holdsTemplateExpression(item, depth + 1),
  );
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
        if (holdsTemplateExpression(value))
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
    const allowsInventory = template.task_params.allow_override_inventory === true;
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
    if (template.app === 'ansible')
      checkAnsibleArguments(JSON.parse(body.arguments) as string[], refusesExpressions(requester));
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
