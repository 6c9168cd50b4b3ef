import type { IntegrationAuthMethod, IntegrationExtractValue, IntegrationMatcher } from '@gantry/contract';
import type { Generated, Selectable } from 'kysely';

export interface IntegrationTable {
  id: Generated<number>;
  project_id: number;
  /** Null when the integration starts a workflow. */
  template_id: number | null;
  workflow_id: number | null;
  name: string;
  /** '' (no check), github, bitbucket, token, hmac or basic. */
  auth_method: IntegrationAuthMethod;
  auth_header: string;
  /** A login_password key whose password is the shared secret. */
  auth_secret_id: number | null;
  /** Served by the project-wide aliases. */
  searchable: number;
  /** JSON object: the parameters of the tasks the integration starts. */
  task_params: string;
  created: string;
}
export type IntegrationRow = Selectable<IntegrationTable>;

export interface IntegrationAliasTable {
  id: Generated<number>;
  project_id: number;
  /** Null for a project-wide alias. */
  integration_id: number | null;
  alias: string;
  created: string;
}
export type IntegrationAliasRow = Selectable<IntegrationAliasTable>;

export interface IntegrationExtractValueTable {
  id: Generated<number>;
  project_id: number;
  integration_id: number;
  name: string;
  value_source: IntegrationExtractValue['value_source'];
  body_data_type: IntegrationExtractValue['body_data_type'];
  key: string;
  variable: string;
  variable_type: IntegrationExtractValue['variable_type'];
}
export type IntegrationExtractValueRow = Selectable<IntegrationExtractValueTable>;

export interface IntegrationMatcherTable {
  id: Generated<number>;
  project_id: number;
  integration_id: number;
  name: string;
  match_type: IntegrationMatcher['match_type'];
  body_data_type: IntegrationMatcher['body_data_type'];
  key: string;
  method: IntegrationMatcher['method'];
  value: string;
}
export type IntegrationMatcherRow = Selectable<IntegrationMatcherTable>;
