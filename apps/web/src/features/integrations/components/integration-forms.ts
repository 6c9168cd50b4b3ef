import { z } from 'zod';
import {
  AUTH_HEADER_REQUIRED,
  AUTH_SECRET_REQUIRED,
  BODY_DATA_FORMAT_REQUIRED,
  BODY_DATA_TYPE_REQUIRED,
  KEY_REQUIRED,
  authMethodNeedsHeader,
  authMethodNeedsSecret,
  requiredText,
} from '@gantry/contract';
import type {
  BodyDataType,
  ExtractVariableType,
  Integration,
  IntegrationAuthMethod,
  IntegrationBody,
  IntegrationExtractValue,
  IntegrationExtractValueBody,
  IntegrationMatcher,
  IntegrationMatcherBody,
  MatchMethod,
} from '@gantry/contract';

/*
 * The forms check the same rules as the contract, but every field in one pass (zod skips an object's
 * refinements while any field fails), with the seed's "... is required" messages.
 */

type Fail = (path: string, message: string) => void;
const collect = <T>(check: (fields: T, fail: Fail) => void) =>
  z
    .custom<T>()
    .superRefine((fields, ctx) =>
      check(fields, (path, message) => ctx.addIssue({ code: 'custom', path: [path], message })),
    );

const MATCH_SOURCE_REQUIRED = 'Match source is required';
const VALUE_SOURCE_REQUIRED = 'Value Source is required';
const METHOD_REQUIRED = 'Comparison method is required';

/** The whole body is one string: no key to look up. */
const needsKey = (source: string, bodyDataType: string) => !(source === 'body' && bodyDataType === 'string');

/*
 * Extracted values and matchers are both named rules that read one part of the request: the body (in a
 * format) or a header, with the key to look up in it. Each names its source field its own way
 * (value_source, match_type).
 */
interface RequestRule {
  name: string;
  body_data_type: BodyDataType | '';
  key: string;
}

const getRequestRuleDefaults = (rule?: RequestRule): RequestRule => ({
  name: rule?.name ?? '',
  body_data_type: rule?.body_data_type ?? '',
  key: rule?.key ?? '',
});

/** The name and the source are required, the format for a body, the key where there is one to look up. */
function checkRequestRule(
  rule: RequestRule,
  source: { field: string; value: 'body' | 'header' | ''; requiredMessage: string },
  bodyDataTypeRequiredMessage: string,
  fail: Fail,
) {
  if (!rule.name.trim()) fail('name', requiredText('Name'));
  if (!source.value) fail(source.field, source.requiredMessage);
  if (source.value === 'body' && !rule.body_data_type) fail('body_data_type', bodyDataTypeRequiredMessage);
  if (source.value && needsKey(source.value, rule.body_data_type) && !rule.key.trim()) fail('key', KEY_REQUIRED);
}

/** What is sent of the rule: no format unless the source is the body, no key where there is none to look up. */
const toRequestRuleBody = (source: 'body' | 'header', rule: RequestRule): RequestRule => ({
  name: rule.name.trim(),
  body_data_type: source === 'body' ? rule.body_data_type : '',
  key: needsKey(source, rule.body_data_type) ? rule.key.trim() : '',
});

export interface IntegrationFields {
  name: string;
  /** What a call starts: a template's task (as in Semaphore) or a workflow's run. */
  target: 'template' | 'workflow';
  template_id: number | null;
  workflow_id: number | null;
  auth_method: IntegrationAuthMethod;
  auth_header: string;
  auth_secret_id: number | null;
}

export const getIntegrationDefaults = (integration?: Integration): IntegrationFields => ({
  name: integration?.name ?? '',
  target: integration?.workflow_id ? 'workflow' : 'template',
  template_id: integration?.template_id ?? null,
  workflow_id: integration?.workflow_id ?? null,
  // "none" (how Semaphore's clients write it) is the form's "None".
  auth_method: integration?.auth_method === 'none' ? '' : (integration?.auth_method ?? ''),
  auth_header: integration?.auth_header ?? '',
  auth_secret_id: integration?.auth_secret_id ?? null,
});

export const IntegrationFormSchema = collect<IntegrationFields>((fields, fail) => {
  if (!fields.name.trim()) fail('name', requiredText('Name'));
  if (fields.target === 'template' && fields.template_id === null) fail('template_id', requiredText('Template'));
  if (fields.target === 'workflow' && fields.workflow_id === null) fail('workflow_id', requiredText('Workflow'));
  if (authMethodNeedsHeader(fields.auth_method) && !fields.auth_header.trim())
    fail('auth_header', AUTH_HEADER_REQUIRED);
  if (authMethodNeedsSecret(fields.auth_method) && fields.auth_secret_id === null)
    fail('auth_secret_id', AUTH_SECRET_REQUIRED);
});

/** An existing integration keeps what the dialog does not edit (the alias switch, task parameters). */
export function toIntegrationBody(
  fields: IntegrationFields,
  projectId: number,
  integration?: Integration,
): IntegrationBody {
  return {
    ...(integration
      ? {
          id: integration.id,
          project_id: projectId,
          searchable: integration.searchable,
          task_params: integration.task_params,
        }
      : { project_id: projectId }),
    name: fields.name.trim(),
    ...(fields.target === 'workflow'
      ? { workflow_id: fields.workflow_id ?? 0 }
      : { template_id: fields.template_id ?? 0 }),
    auth_method: fields.auth_method,
    auth_header: authMethodNeedsHeader(fields.auth_method) ? fields.auth_header.trim() : '',
    auth_secret_id: authMethodNeedsSecret(fields.auth_method) ? fields.auth_secret_id : null,
  };
}

export interface ExtractValueFields extends RequestRule {
  value_source: 'body' | 'header' | '';
  variable: string;
  variable_type: ExtractVariableType;
}

export const getExtractValueDefaults = (value?: IntegrationExtractValue): ExtractValueFields => ({
  ...getRequestRuleDefaults(value),
  value_source: value?.value_source ?? '',
  variable: value?.variable ?? '',
  variable_type: value?.variable_type ?? 'environment',
});

export const ExtractValueFormSchema = collect<ExtractValueFields>((fields, fail) => {
  checkRequestRule(
    fields,
    { field: 'value_source', value: fields.value_source, requiredMessage: VALUE_SOURCE_REQUIRED },
    BODY_DATA_TYPE_REQUIRED,
    fail,
  );
  if (!fields.variable.trim()) fail('variable', requiredText('Variable'));
});

export function toExtractValueBody(
  fields: ExtractValueFields,
  integrationId: number,
  value?: IntegrationExtractValue,
): IntegrationExtractValueBody {
  const source = fields.value_source || 'body';
  return {
    ...(value ? { id: value.id } : {}),
    integration_id: integrationId,
    ...toRequestRuleBody(source, fields),
    value_source: source,
    variable: fields.variable.trim(),
    variable_type: fields.variable_type,
  };
}

export interface MatcherFields extends RequestRule {
  match_type: 'body' | 'header' | '';
  method: MatchMethod | '';
  value: string;
}

export const getMatcherDefaults = (matcher?: IntegrationMatcher): MatcherFields => ({
  ...getRequestRuleDefaults(matcher),
  match_type: matcher?.match_type ?? '',
  method: matcher?.method ?? '',
  value: matcher?.value ?? '',
});

export const MatcherFormSchema = collect<MatcherFields>((fields, fail) => {
  checkRequestRule(
    fields,
    { field: 'match_type', value: fields.match_type, requiredMessage: MATCH_SOURCE_REQUIRED },
    BODY_DATA_FORMAT_REQUIRED,
    fail,
  );
  if (!fields.method) fail('method', METHOD_REQUIRED);
  if (!fields.value.trim()) fail('value', requiredText('Value'));
});

export function toMatcherBody(
  fields: MatcherFields,
  integrationId: number,
  matcher?: IntegrationMatcher,
): IntegrationMatcherBody {
  const source = fields.match_type || 'body';
  return {
    ...(matcher ? { id: matcher.id } : {}),
    integration_id: integrationId,
    ...toRequestRuleBody(source, fields),
    match_type: source,
    method: fields.method || 'equals',
    value: fields.value,
  };
}

/** Whether the key field applies: not for a body taken whole as a string. */
export const showsKey = (source: string, bodyDataType: string) => source !== '' && needsKey(source, bodyDataType);
