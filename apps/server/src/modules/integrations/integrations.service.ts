import { randomBytes } from 'node:crypto';
import type {
  Integration,
  IntegrationAlias,
  IntegrationAuthMethod,
  IntegrationBody,
  IntegrationExtractValue,
  IntegrationExtractValueBody,
  IntegrationMatcher,
  IntegrationMatcherBody,
  IntegrationRefs,
} from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { badRequest, notFound, validationFailed } from '../../errors.ts';
import type { EventsService } from '../events/events.service.ts';
import type { KeysService } from '../keys/keys.service.ts';
import type { TemplatesService } from '../templates/templates.service.ts';
import type { UserRow } from '../users/users.table.ts';
import type { IntegrationsRepository } from './integrations.repository.ts';
import type { IntegrationAliasRow, IntegrationExtractValueRow, IntegrationMatcherRow, IntegrationRow } from './integrations.table.ts';

type IntegrationInput = z.output<typeof IntegrationBody>;
type ValueInput = z.output<typeof IntegrationExtractValueBody>;
type MatcherInput = z.output<typeof IntegrationMatcherBody>;
type Order = 'asc' | 'desc';

export function toIntegration(row: IntegrationRow): Integration {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    template_id: row.template_id,
    auth_method: row.auth_method as IntegrationAuthMethod,
    auth_header: row.auth_header,
    auth_secret_id: row.auth_secret_id,
    searchable: row.searchable === 1,
    task_params: JSON.parse(row.task_params) as Record<string, unknown>,
  };
}

export function toExtractValue(row: IntegrationExtractValueRow): IntegrationExtractValue {
  return {
    id: row.id,
    integration_id: row.integration_id,
    name: row.name,
    value_source: row.value_source as IntegrationExtractValue['value_source'],
    body_data_type: row.body_data_type as IntegrationExtractValue['body_data_type'],
    key: row.key,
    variable: row.variable,
    variable_type: row.variable_type as IntegrationExtractValue['variable_type'],
  };
}

export function toMatcher(row: IntegrationMatcherRow): IntegrationMatcher {
  return {
    id: row.id,
    integration_id: row.integration_id,
    name: row.name,
    match_type: row.match_type as IntegrationMatcher['match_type'],
    body_data_type: row.body_data_type as IntegrationMatcher['body_data_type'],
    key: row.key,
    method: row.method as IntegrationMatcher['method'],
    value: row.value,
  };
}

/** 32 URL-safe characters (192 random bits): the alias is the only thing guarding an unauthenticated integration. */
const generateAlias = () => randomBytes(24).toString('base64url');

interface IntegrationsDeps {
  config: Config;
  clock: Clock;
  integrations: IntegrationsRepository;
  templates: TemplatesService;
  keys: KeysService;
  events: EventsService;
}

export function createIntegrationsService({ config, clock, integrations, templates, keys, events }: IntegrationsDeps) {
  async function getRow(projectId: number, id: number): Promise<IntegrationRow> {
    const row = await integrations.find(projectId, id);
    if (!row) throw notFound('Integration');
    return row;
  }

  /** The configured public address wins; otherwise the address the caller used to reach us. */
  function aliasUrl(alias: string, requestOrigin: string): string {
    const origin = (config.web_host || requestOrigin).replace(/\/+$/, '');
    return `${origin}/api/integrations/${alias}`;
  }
  const toAlias = (row: IntegrationAliasRow, origin: string): IntegrationAlias => ({ id: row.id, url: aliasUrl(row.alias, origin) });

  async function toRow(projectId: number, body: IntegrationInput) {
    if (body.project_id !== undefined && body.project_id !== projectId) throw badRequest('Project ID in body and URL must be the same');
    if (!(await templates.exists(projectId, body.template_id))) throw badRequest('Template not found in this project');
    if (body.auth_secret_id !== null) {
      const key = await keys.assertExists(projectId, body.auth_secret_id, 'Auth secret');
      if (key.type !== 'login_password') throw validationFailed('Auth secret must be a login with password key');
    }
    return {
      name: body.name,
      template_id: body.template_id,
      auth_method: body.auth_method,
      auth_header: body.auth_method === 'token' || body.auth_method === 'hmac' ? body.auth_header : '',
      auth_secret_id: body.auth_method === '' ? null : body.auth_secret_id,
      searchable: body.searchable ? 1 : 0,
      task_params: JSON.stringify(body.task_params),
    };
  }

  function checkParent(integrationId: number, bodyIntegrationId: number | undefined): void {
    if (bodyIntegrationId !== undefined && bodyIntegrationId !== integrationId) throw badRequest('Integration ID in body and URL must be the same');
  }

  const record = (actor: UserRow, projectId: number, objectType: string, id: number, description: string) =>
    events.record({ userId: actor.id, projectId, objectType, objectId: id, description });

  const valueRow = (body: ValueInput) => ({
    name: body.name,
    value_source: body.value_source,
    body_data_type: body.body_data_type,
    key: body.key,
    variable: body.variable,
    variable_type: body.variable_type,
  });
  const matcherRow = (body: MatcherInput) => ({
    name: body.name,
    match_type: body.match_type,
    body_data_type: body.body_data_type,
    key: body.key,
    method: body.method,
    value: body.value,
  });

  return {
    async list(projectId: number, order: Order = 'asc'): Promise<Integration[]> {
      return (await integrations.list(projectId, order)).map(toIntegration);
    },
    async get(projectId: number, id: number): Promise<Integration> {
      return toIntegration(await getRow(projectId, id));
    },
    async create(actor: UserRow, projectId: number, body: IntegrationInput): Promise<Integration> {
      const row = { ...(await toRow(projectId, body)), project_id: projectId, created: toTimestamp(clock.now()) };
      const id = await integrations.insert(row);
      await record(actor, projectId, 'integration', id, `Integration ${row.name} created`);
      return toIntegration({ ...row, id });
    },
    async update(actor: UserRow, projectId: number, id: number, body: IntegrationInput): Promise<void> {
      if (body.id !== undefined && body.id !== id) throw badRequest('Integration ID in body and URL must be the same');
      await getRow(projectId, id);
      await integrations.update(projectId, id, await toRow(projectId, body));
      await record(actor, projectId, 'integration', id, `Integration ${body.name} updated`);
    },
    async remove(actor: UserRow, projectId: number, id: number): Promise<void> {
      const current = await getRow(projectId, id);
      await integrations.delete(projectId, id);
      await record(actor, projectId, 'integration', id, `Integration ${current.name} deleted`);
    },
    async refs(projectId: number, id: number): Promise<IntegrationRefs> {
      await getRow(projectId, id);
      const named = (rows: { id: number; name: string }[]) => rows.map((r) => ({ id: r.id, name: r.name }));
      return { matchers: named(await integrations.listMatchers(projectId, id)), values: named(await integrations.listValues(projectId, id)) };
    },

    /** Aliases of an integration, or the project-wide ones when integrationId is null. */
    async listAliases(projectId: number, integrationId: number | null, origin: string): Promise<IntegrationAlias[]> {
      if (integrationId !== null) await getRow(projectId, integrationId);
      return (await integrations.listAliases(projectId, integrationId)).map((row) => toAlias(row, origin));
    },
    async createAlias(actor: UserRow, projectId: number, integrationId: number | null, origin: string): Promise<IntegrationAlias> {
      const owner = integrationId === null ? undefined : await getRow(projectId, integrationId);
      const row = { project_id: projectId, integration_id: integrationId, alias: generateAlias(), created: toTimestamp(clock.now()) };
      const id = await integrations.insertAlias(row);
      await record(actor, projectId, 'integration', integrationId ?? id, owner ? `Alias added to integration ${owner.name}` : 'Project-wide integration alias added');
      return toAlias({ ...row, id }, origin);
    },
    async removeAlias(actor: UserRow, projectId: number, integrationId: number | null, aliasId: number): Promise<void> {
      if (integrationId !== null) await getRow(projectId, integrationId);
      if (!(await integrations.deleteAlias(projectId, integrationId, aliasId))) throw notFound('Alias');
      await record(actor, projectId, 'integration', integrationId ?? aliasId, integrationId === null ? 'Project-wide integration alias removed' : 'Integration alias removed');
    },

    async listValues(projectId: number, integrationId: number, order: Order = 'asc'): Promise<IntegrationExtractValue[]> {
      await getRow(projectId, integrationId);
      return (await integrations.listValues(projectId, integrationId, order)).map(toExtractValue);
    },
    async getValue(projectId: number, integrationId: number, id: number): Promise<IntegrationExtractValue> {
      const row = await integrations.findValue(projectId, integrationId, id);
      if (!row) throw notFound('Extracted value');
      return toExtractValue(row);
    },
    async createValue(actor: UserRow, projectId: number, integrationId: number, body: ValueInput): Promise<IntegrationExtractValue> {
      checkParent(integrationId, body.integration_id);
      await getRow(projectId, integrationId);
      const row = { ...valueRow(body), project_id: projectId, integration_id: integrationId };
      const id = await integrations.insertValue(row);
      await record(actor, projectId, 'integrationextractvalue', id, `Extracted value ${row.name} created`);
      return toExtractValue({ ...row, id });
    },
    async updateValue(actor: UserRow, projectId: number, integrationId: number, id: number, body: ValueInput): Promise<void> {
      if (body.id !== undefined && body.id !== id) throw badRequest('Extracted value ID in body and URL must be the same');
      checkParent(integrationId, body.integration_id);
      await this.getValue(projectId, integrationId, id);
      await integrations.updateValue(projectId, integrationId, id, valueRow(body));
      await record(actor, projectId, 'integrationextractvalue', id, `Extracted value ${body.name} updated`);
    },
    async removeValue(actor: UserRow, projectId: number, integrationId: number, id: number): Promise<void> {
      const current = await this.getValue(projectId, integrationId, id);
      await integrations.deleteValue(projectId, integrationId, id);
      await record(actor, projectId, 'integrationextractvalue', id, `Extracted value ${current.name} deleted`);
    },
    async valueRefs(projectId: number, integrationId: number, id: number) {
      await this.getValue(projectId, integrationId, id);
      const owner = await getRow(projectId, integrationId);
      return { integrations: [{ id: owner.id, name: owner.name }] };
    },

    async listMatchers(projectId: number, integrationId: number, order: Order = 'asc'): Promise<IntegrationMatcher[]> {
      await getRow(projectId, integrationId);
      return (await integrations.listMatchers(projectId, integrationId, order)).map(toMatcher);
    },
    async getMatcher(projectId: number, integrationId: number, id: number): Promise<IntegrationMatcher> {
      const row = await integrations.findMatcher(projectId, integrationId, id);
      if (!row) throw notFound('Matcher');
      return toMatcher(row);
    },
    async createMatcher(actor: UserRow, projectId: number, integrationId: number, body: MatcherInput): Promise<IntegrationMatcher> {
      checkParent(integrationId, body.integration_id);
      await getRow(projectId, integrationId);
      const row = { ...matcherRow(body), project_id: projectId, integration_id: integrationId };
      const id = await integrations.insertMatcher(row);
      await record(actor, projectId, 'integrationmatcher', id, `Matcher ${row.name} created`);
      return toMatcher({ ...row, id });
    },
    async updateMatcher(actor: UserRow, projectId: number, integrationId: number, id: number, body: MatcherInput): Promise<void> {
      if (body.id !== undefined && body.id !== id) throw badRequest('Matcher ID in body and URL must be the same');
      checkParent(integrationId, body.integration_id);
      await this.getMatcher(projectId, integrationId, id);
      await integrations.updateMatcher(projectId, integrationId, id, matcherRow(body));
      await record(actor, projectId, 'integrationmatcher', id, `Matcher ${body.name} updated`);
    },
    async removeMatcher(actor: UserRow, projectId: number, integrationId: number, id: number): Promise<void> {
      const current = await this.getMatcher(projectId, integrationId, id);
      await integrations.deleteMatcher(projectId, integrationId, id);
      await record(actor, projectId, 'integrationmatcher', id, `Matcher ${current.name} deleted`);
    },
    async matcherRefs(projectId: number, integrationId: number, id: number) {
      await this.getMatcher(projectId, integrationId, id);
      const owner = await getRow(projectId, integrationId);
      return { integrations: [{ id: owner.id, name: owner.name }] };
    },
  };
}

export type IntegrationsService = ReturnType<typeof createIntegrationsService>;
