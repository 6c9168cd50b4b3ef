import { z } from 'zod';
import { TemplateBody, appNeedsInventory, appNeedsPlaybook, isTerraformApp } from '@gantry/contract';
import type { ApprovalGateInput, SurveyVar, Template, TemplateType } from '@gantry/contract';
import { DEFAULT_APPROVAL_RULE, toApprovalRule } from '../../../components/approvals/approval-rule.ts';
import type { ApprovalRule } from '../../../components/approvals/approval-rule.ts';
import { cleanStringList } from '../../../components/string-list-editor.tsx';

/** The type tabs of the form, in their fixed order. */
export const TEMPLATE_TYPES: readonly TemplateType[] = ['', 'build', 'deploy'];

/** A vault row of the form; the name is optional (empty is the default vault). */
interface VaultFields {
  name: string;
  type: 'password' | 'script';
  vault_key_id: number | null;
  script: string;
}

/** The approval gate as the form edits it; numbers are text while typed. */
export interface ApprovalFields extends ApprovalRule {
  enabled: boolean;
}

const DEFAULT_APPROVAL: ApprovalFields = { enabled: false, ...DEFAULT_APPROVAL_RULE };

function getApprovalFields(gate: Template['approval']): ApprovalFields {
  return gate ? { enabled: true, ...toApprovalRule(gate) } : DEFAULT_APPROVAL;
}

/** Text that is no number becomes NaN, which the contract refuses with the field's own message. */
const toNumber = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));

function toApprovalGate(fields: ApprovalFields): ApprovalGateInput | null {
  if (!fields.enabled) return null;
  return {
    approvers: { user_ids: fields.user_ids, roles: fields.roles },
    required: toNumber(fields.required),
    timeout_seconds: toNumber(fields.timeout_seconds),
    on_timeout: fields.on_timeout,
    starter_may_approve: fields.starter_may_approve,
  };
}

/** The template's settings the form edits as the wire holds them, and those it shows unchanged. */
type TemplateWireFields = Pick<
  Template,
  | 'name'
  | 'description'
  | 'app'
  | 'type'
  | 'playbook'
  | 'inventory_id'
  | 'repository_id'
  | 'environment_id'
  | 'view_id'
  | 'allow_override_args_in_task'
  | 'allow_parallel_tasks'
  | 'suppress_success_alerts'
  | 'build_template_id'
  | 'autorun'
  // Settings the form does not show, carried over unchanged.
  | 'git_branch'
  | 'allow_override_branch_in_task'
  | 'task_params'
>;

/** What the template form edits. CLI args are a list here and a JSON array string on the wire. */
export interface TemplateFormFields extends TemplateWireFields {
  arguments: string[];
  start_version: string;
  survey_vars: SurveyVar[];
  vaults: VaultFields[];
  approval: ApprovalFields;
  /** Retries of a failed task and the seconds before each, as typed. */
  retries: string;
  retry_delay_seconds: string;
}

/** How the playbook field reads for an app: a playbook, a script, or a directory of infrastructure code. */
export type PlaybookKind = 'playbook' | 'script' | 'subdirectory';

export function getPlaybookKind(app: string): PlaybookKind {
  if (app === 'ansible') return 'playbook';
  return appNeedsPlaybook(app) ? 'script' : 'subdirectory';
}

/** Vaults are an Ansible feature. */
export const appUsesVaults = (app: string) => app === 'ansible';

/** CLI args as stored: a JSON array of strings; anything else is kept as one argument so nothing is lost. */
export function parseArguments(text: string | null): string[] {
  if (!text?.trim()) return [];
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  } catch {
    // Not JSON: fall through.
  }
  return [text];
}

export function getTemplateFormDefaults({
  app,
  viewId,
  template,
}: {
  app: string;
  viewId?: number;
  template?: Template;
}): TemplateFormFields {
  if (template) {
    return {
      name: template.name,
      description: template.description,
      app: template.app,
      type: template.type,
      playbook: template.playbook,
      inventory_id: template.inventory_id,
      repository_id: template.repository_id,
      environment_id: template.environment_id,
      view_id: template.view_id,
      arguments: parseArguments(template.arguments),
      allow_override_args_in_task: template.allow_override_args_in_task,
      allow_parallel_tasks: template.allow_parallel_tasks,
      suppress_success_alerts: template.suppress_success_alerts,
      start_version: template.start_version ?? '',
      build_template_id: template.build_template_id,
      autorun: template.autorun,
      survey_vars: template.survey_vars,
      vaults: template.vaults.map((vault) => ({
        name: vault.name,
        type: vault.type,
        vault_key_id: vault.vault_key_id,
        script: vault.script,
      })),
      approval: getApprovalFields(template.approval),
      retries: String(template.retries),
      retry_delay_seconds: String(template.retry_delay_seconds),
      git_branch: template.git_branch,
      allow_override_branch_in_task: template.allow_override_branch_in_task,
      task_params: template.task_params,
    };
  }
  return {
    name: '',
    description: '',
    app,
    type: '',
    playbook: '',
    inventory_id: null,
    repository_id: null,
    environment_id: null,
    view_id: viewId ?? null,
    arguments: [],
    allow_override_args_in_task: false,
    allow_parallel_tasks: false,
    suppress_success_alerts: false,
    start_version: '',
    build_template_id: null,
    autorun: false,
    survey_vars: [],
    vaults: [],
    approval: DEFAULT_APPROVAL,
    retries: '0',
    retry_delay_seconds: '0',
    git_branch: null,
    allow_override_branch_in_task: false,
    task_params: {},
  };
}

/** The body to send: fields that do not apply to the app or the type are cleared. */
export function toTemplateBody(fields: TemplateFormFields): TemplateBody {
  const args = cleanStringList(fields.arguments);
  return {
    name: fields.name,
    description: fields.description,
    app: fields.app,
    type: fields.type,
    playbook: fields.playbook,
    // Terraform and tofu keep their default workspace, chosen on the Workspaces tab.
    inventory_id: appNeedsInventory(fields.app) || isTerraformApp(fields.app) ? fields.inventory_id : null,
    repository_id: fields.repository_id,
    environment_id: fields.environment_id,
    view_id: fields.view_id,
    arguments: args.length > 0 ? JSON.stringify(args) : null,
    allow_override_args_in_task: fields.allow_override_args_in_task,
    allow_override_branch_in_task: fields.allow_override_branch_in_task,
    allow_parallel_tasks: fields.allow_parallel_tasks,
    suppress_success_alerts: fields.suppress_success_alerts,
    start_version: fields.type === 'build' ? fields.start_version : null,
    build_template_id: fields.type === 'deploy' ? fields.build_template_id : null,
    autorun: fields.type === 'deploy' && fields.autorun,
    git_branch: fields.git_branch,
    survey_vars: fields.survey_vars,
    vaults: appUsesVaults(fields.app) ? fields.vaults : [],
    task_params: fields.task_params,
    approval: toApprovalGate(fields.approval),
    retries: toNumber(fields.retries),
    retry_delay_seconds: toNumber(fields.retry_delay_seconds),
  };
}

/** Lazy validation of the whole form with the contract's rules; issues keep the form's field paths. */
export const TemplateFormSchema = z.custom<TemplateFormFields>().transform(toTemplateBody).pipe(TemplateBody);

/** The body that creates a copy of a template: same settings, name "<name> (copy)". */
export function toCopyBody(template: Template, name: string): TemplateBody {
  return toTemplateBody({ ...getTemplateFormDefaults({ app: template.app, template }), name });
}
