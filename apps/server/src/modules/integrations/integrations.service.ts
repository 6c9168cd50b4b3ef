import type {
  Integration,
  IntegrationAlias,
  IntegrationBody,
  IntegrationExtractValue,
  IntegrationExtractValueBody,
  IntegrationMatcher,
  IntegrationMatcherBody,
  IntegrationRefs,
} from '@gantry/contract';
import { authMethodNeedsHeader, authMethodNeedsSecret, isPasswordKeyType } from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { badRequest, notFound, validationFailed } from '../../errors.ts';
import { generateAlias } from '../../http/public-credentials.ts';
import type { EventsService } from '../events/events.service.ts';
import type { KeysService } from '../keys/keys.service.ts';
import type { TemplatesService } from '../templates/templates.service.ts';
import type { UserRow } from '../users/users.table.ts';
import { checkStartTarget } from '../workflows/start-target.ts';
import type { WorkflowRuns } from '../workflows/workflow-runs.service.ts';
import type { IntegrationsRepository, RuleQueries, RuleRow } from './integrations.repository.ts';
import type {
  IntegrationAliasRow,
  IntegrationExtractValueRow,
  IntegrationMatcherRow,
  IntegrationRow,
} from './integrations.table.ts';
import { columnsOf, flagsOf, taskParamsOf } from '../../db/row-fields.ts';
import { assertBodyInProject, makeBodyOperations, projectResource } from '../refs/project-resource.ts';

type IntegrationInput = z.output<typeof IntegrationBody>;
type ValueInput = z.output<typeof IntegrationExtractValueBody>;
type MatcherInput = z.output<typeof IntegrationMatcherBody>;
type Order = 'asc' | 'desc';

/** What every rule body may carry besides its fields: its own id and its integration's, checked against the URL. */
interface RuleInput {
  id?: number;
  integration_id?: number;
  name: string;
}

/** One kind of integration rule, as the service handles it. */
interface RuleKind<TFields, TWire, TInput extends RuleInput> {
  /** Names the rule in messages and events: "Matcher", "Extracted value". */
  label: string;
  /** The object type of the events it records. */
  objectType: string;
  store: RuleQueries<TFields>;
  toFields: (body: TInput) => TFields;
  toWire: (row: RuleRow<TFields>) => TWire;
}

function toIntegration(row: IntegrationRow): Integration {
  return {
    ...(row.workflow_id === null ? {} : { workflow_id: row.workflow_id }),
    ...columnsOf(row, ['id', 'project_id', 'name', 'template_id', 'auth_method', 'auth_header', 'auth_secret_id']),
    ...flagsOf(row, ['searchable']),
    task_params: taskParamsOf(row.task_params),
  };
}

export function toExtractValue(row: IntegrationExtractValueRow): IntegrationExtractValue {
  return columnsOf(row, [
    'id',
    'integration_id',
    'name',
    'value_source',
    'body_data_type',
    'key',
    'variable',
    'variable_type',
  ]);
}

export function toMatcher(row: IntegrationMatcherRow): IntegrationMatcher {
  return columnsOf(row, ['id', 'integration_id', 'name', 'match_type', 'body_data_type', 'key', 'method', 'value']);
}

interface IntegrationsDeps {
  config: Config;
  clock: Clock;
  integrations: IntegrationsRepository;
  templates: TemplatesService;
  keys: KeysService;
  events: EventsService;
  workflowRuns: Pick<WorkflowRuns, 'explainStart'>;
}

export function createIntegrationsService({
  config,
  clock,
  integrations,
  templates,
  keys,
  events,
  workflowRuns,
}: IntegrationsDeps) {
  const resource = projectResource({ label: 'Integration', objectType: 'integration', rows: integrations, events });
  const { get: getRow } = resource;

  /** The configured public address wins; otherwise the address the caller used to reach us. */
  function aliasUrl(alias: string, requestOrigin: string): string {
    const origin = (config.web_host || requestOrigin).replace(/\/+$/, '');
    return `${origin}/api/integrations/${alias}`;
  }
  const toAlias = (row: IntegrationAliasRow, origin: string): IntegrationAlias => ({
    id: row.id,
    url: aliasUrl(row.alias, origin),
  });

  async function fieldsOf(projectId: number, body: IntegrationInput) {
    assertBodyInProject(projectId, body);
    const target = await checkStartTarget({ templates, workflowRuns }, projectId, body, false);
    await templates.assertTaskParamsInProject(projectId, body.task_params);
    if (body.auth_secret_id !== null) {
      const key = await keys.assertExists(projectId, body.auth_secret_id, 'Auth secret');
      if (!isPasswordKeyType(key.type)) throw validationFailed('Auth secret must be a login with password key');
    }
    return {
      name: body.name,
      ...target,
      auth_method: body.auth_method,
      auth_header: authMethodNeedsHeader(body.auth_method) ? body.auth_header : '',
      auth_secret_id: authMethodNeedsSecret(body.auth_method) ? body.auth_secret_id : null,
      searchable: body.searchable ? 1 : 0,
      task_params: JSON.stringify(body.task_params),
    };
  }

  function checkParent(integrationId: number, bodyIntegrationId: number | undefined): void {
    if (bodyIntegrationId !== undefined && bodyIntegrationId !== integrationId)
      throw badRequest('Integration ID in body and URL must be the same');
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

  /** The API of one kind of rule (extracted values, matchers): they differ only in their fields and names. */
  function ruleOperations<TFields, TWire extends { name: string }, TInput extends RuleInput>(
    kind: RuleKind<TFields, TWire, TInput>,
  ) {
    const { label, objectType, store } = kind;
    async function get(projectId: number, integrationId: number, id: number): Promise<TWire> {
      const row = await store.find(projectId, integrationId, id);
      if (!row) throw notFound(label);
      return kind.toWire(row);
    }
    return {
      async list(projectId: number, integrationId: number, order: Order = 'asc'): Promise<TWire[]> {
        await getRow(projectId, integrationId);
        return (await store.list(projectId, integrationId, order)).map(kind.toWire);
      },
      get,
      async create(actor: UserRow, projectId: number, integrationId: number, body: TInput): Promise<TWire> {
        checkParent(integrationId, body.integration_id);
        await getRow(projectId, integrationId);
        const row = { ...kind.toFields(body), project_id: projectId, integration_id: integrationId };
        const id = await store.insert(row);
        await record(actor, projectId, objectType, id, `${label} ${body.name} created`);
        return kind.toWire({ ...row, id });
      },
      async update(actor: UserRow, projectId: number, integrationId: number, id: number, body: TInput): Promise<void> {
        if (body.id !== undefined && body.id !== id) throw badRequest(`${label} ID in body and URL must be the same`);
        checkParent(integrationId, body.integration_id);
        await get(projectId, integrationId, id);
        await store.update(projectId, integrationId, id, kind.toFields(body));
        await record(actor, projectId, objectType, id, `${label} ${body.name} updated`);
      },
      async remove(actor: UserRow, projectId: number, integrationId: number, id: number): Promise<void> {
        const current = await get(projectId, integrationId, id);
        await store.delete(projectId, integrationId, id);
        await record(actor, projectId, objectType, id, `${label} ${current.name} deleted`);
      },
      async refs(projectId: number, integrationId: number, id: number) {
        await get(projectId, integrationId, id);
        const owner = await getRow(projectId, integrationId);
        return { integrations: [{ id: owner.id, name: owner.name }] };
      },
    };
  }
  const values = ruleOperations({
    label: 'Extracted value',
    objectType: 'integrationextractvalue',
    store: integrations.values,
    toFields: valueRow,
    toWire: toExtractValue,
  });
  const matchers = ruleOperations({
    label: 'Matcher',
    objectType: 'integrationmatcher',
    store: integrations.matchers,
    toFields: matcherRow,
    toWire: toMatcher,
  });

  return {
    async list(projectId: number, order: Order = 'asc'): Promise<Integration[]> {
      return (await integrations.list(projectId, 'name', order)).map(toIntegration);
    },
    ...makeBodyOperations(resource, { fieldsOf, toWire: toIntegration, clock }),
    async remove(actor: UserRow, projectId: number, id: number): Promise<void> {
      const current = await getRow(projectId, id);
      await integrations.delete(projectId, id);
      await resource.record(actor, projectId, id, `Integration ${current.name} deleted`);
    },
    async refs(projectId: number, id: number): Promise<IntegrationRefs> {
      await getRow(projectId, id);
      const named = (rows: { id: number; name: string }[]) => rows.map((r) => ({ id: r.id, name: r.name }));
      return {
        matchers: named(await integrations.matchers.list(projectId, id)),
        values: named(await integrations.values.list(projectId, id)),
      };
    },

    /** Aliases of an integration, or the project-wide ones when integrationId is null. */
    async listAliases(projectId: number, integrationId: number | null, origin: string): Promise<IntegrationAlias[]> {
      if (integrationId !== null) await getRow(projectId, integrationId);
      return (await integrations.listAliases(projectId, integrationId)).map((row) => toAlias(row, origin));
    },
    async createAlias(
      actor: UserRow,
      projectId: number,
      integrationId: number | null,
      origin: string,
    ): Promise<IntegrationAlias> {
      const owner = integrationId === null ? undefined : await getRow(projectId, integrationId);
      const row = {
        project_id: projectId,
        integration_id: integrationId,
        alias: generateAlias(),
        created: toTimestamp(clock.now()),
      };
      const id = await integrations.insertAlias(row);
      // A project-wide alias belongs to no integration: its events name none (an alias id is no integration id).
      await events.record({
        userId: actor.id,
        projectId,
        objectType: 'integration',
        objectId: integrationId,
        description: owner ? `Alias added to integration ${owner.name}` : 'Project-wide integration alias added',
      });
      return toAlias({ ...row, id }, origin);
    },
    async removeAlias(actor: UserRow, projectId: number, integrationId: number | null, aliasId: number): Promise<void> {
      if (integrationId !== null) await getRow(projectId, integrationId);
      if (!(await integrations.deleteAlias(projectId, integrationId, aliasId))) throw notFound('Alias');
      await events.record({
        userId: actor.id,
        projectId,
        objectType: 'integration',
        objectId: integrationId,
        description: integrationId === null ? 'Project-wide integration alias removed' : 'Integration alias removed',
      });
    },

    values,
    matchers,
  };
}

export type IntegrationsService = ReturnType<typeof createIntegrationsService>;
