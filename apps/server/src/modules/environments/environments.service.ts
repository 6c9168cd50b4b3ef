import type { Environment, EnvironmentBody, EnvironmentSecretChange } from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { badRequest } from '../../errors.ts';
import type { SecretBox } from '../../secrets/secret-box.ts';
import type { EventsService } from '../events/events.service.ts';
import { assertBodyInProject, type ResourceRefsLookup, usedResource } from '../refs/project-resource.ts';
import type { UserRow } from '../users/users.table.ts';
import type { EnvironmentsRepository } from './environments.repository.ts';
import type { EnvironmentRow, EnvironmentSecretRow } from './environments.table.ts';

type EnvironmentInput = z.output<typeof EnvironmentBody>;

/** Decrypted secret of a variable group, for the task engine only. */
export interface EnvironmentSecretValue {
  type: 'var' | 'env';
  name: string;
  value: string;
}

function toEnvironment(row: EnvironmentRow, secrets: EnvironmentSecretRow[]): Environment {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    json: row.json,
    env: row.env,
    password: null,
    secrets: secrets.map((s) => ({
      id: s.id,
      type: s.type as 'var' | 'env',
      name: s.name,
      secret: '' as const,
      operation: '' as const,
    })),
  };
}

/** Secret changes the client sends; entries without an operation are untouched secrets and are skipped. */
function listChanges(body: EnvironmentInput): EnvironmentSecretChange[] {
  return (body.secrets ?? []).filter(
    (s): s is EnvironmentSecretChange => 'operation' in s && s.operation !== '' && s.operation !== undefined,
  );
}

interface EnvironmentsDeps {
  environments: EnvironmentsRepository;
  refs: ResourceRefsLookup;
  events: EventsService;
  secrets: SecretBox;
  clock: Clock;
}

export function createEnvironmentsService({ environments, refs, events, secrets, clock }: EnvironmentsDeps) {
  const resource = usedResource({
    label: 'Variable group',
    objectType: 'environment',
    rows: environments,
    events,
    usedBy: refs.forEnvironment,
  });
  const { get: getRow, record } = resource;

  async function applySecretChanges(
    projectId: number,
    environmentId: number,
    changes: EnvironmentSecretChange[],
  ): Promise<void> {
    const existing = await environments.secrets.list(projectId, environmentId);
    const known = new Set(existing.map((s) => s.id));
    const names = new Set(existing.map((s) => `${s.type}:${s.name}`));
    for (const change of changes) {
      if (change.operation === 'create') {
        const key = `${change.type}:${change.name}`;
        if (names.has(key)) throw badRequest(`Secret ${change.name} already exists`);
        names.add(key);
        await environments.secrets.insert({
          project_id: projectId,
          environment_id: environmentId,
          type: change.type,
          name: change.name,
          secret: secrets.seal(change.secret),
        });
      } else if (!known.has(change.id)) {
        throw badRequest(`Secret ${change.id} not found in this variable group`);
      } else if (change.operation === 'update') {
        if (change.secret !== '')
          await environments.secrets.update(projectId, environmentId, change.id, {
            secret: secrets.seal(change.secret),
          });
      } else {
        await environments.secrets.delete(projectId, environmentId, change.id);
      }
    }
  }

  return {
    async list(projectId: number, order: 'asc' | 'desc'): Promise<Environment[]> {
      const secretsOf = new Map<number, EnvironmentSecretRow[]>();
      for (const secret of await environments.listProjectSecrets(projectId))
        secretsOf.set(secret.environment_id, [...(secretsOf.get(secret.environment_id) ?? []), secret]);
      return (await environments.list(projectId, 'name', order)).map((row) =>
        toEnvironment(row, secretsOf.get(row.id) ?? []),
      );
    },
    async get(projectId: number, id: number): Promise<Environment> {
      return toEnvironment(await getRow(projectId, id), await environments.secrets.list(projectId, id));
    },
    assertExists: resource.assertExists,
    async create(actor: UserRow | undefined, projectId: number, body: EnvironmentInput): Promise<Environment> {
      assertBodyInProject(projectId, body);
      const row = {
        project_id: projectId,
        name: body.name,
        json: body.json,
        env: body.env,
        password: null,
        created: toTimestamp(clock.now()),
      };
      const id = await environments.insert(row);
      await applySecretChanges(
        projectId,
        id,
        listChanges(body).filter((c) => c.operation === 'create'),
      );
      if (actor) await record(actor, projectId, id, `Variable group ${row.name} created`);
      return toEnvironment({ ...row, id }, await environments.secrets.list(projectId, id));
    },
    async update(actor: UserRow, projectId: number, id: number, body: EnvironmentInput): Promise<void> {
      await resource.getForUpdate(projectId, id, body);
      await environments.update(projectId, id, { name: body.name, json: body.json, env: body.env });
      await applySecretChanges(projectId, id, listChanges(body));
      await record(actor, projectId, id, `Variable group ${body.name} updated`);
    },
    refs: resource.refs,
    remove: resource.remove,
    /** The decrypted secrets of a variable group, for the task engine only. */
    async listSecretValues(projectId: number, id: number): Promise<EnvironmentSecretValue[]> {
      return (await environments.secrets.list(projectId, id)).map((s) => ({
        type: s.type as 'var' | 'env',
        name: s.name,
        value: secrets.open(s.secret),
      }));
    },
  };
}

export type EnvironmentsService = ReturnType<typeof createEnvironmentsService>;
