import type { Environment, EnvironmentBody, EnvironmentSecretChange } from '@gantry/contract';
import { ENV_NAME_INVALID, isEnvironmentVariableName } from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { badRequest, validationFailed } from '../../errors.ts';
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

  /**
   * Checks every change against the group's secrets before writing any: ids must be the group's own,
   * names unique per type once all changes are made (an update may take the name of a secret deleted in
   * the same request, as the Terraform provider does when the first of two secrets goes), and a renamed
   * `env` secret's name must be an environment variable's (its type stays, as in Semaphore).
   */
  async function applySecretChanges(
    projectId: number,
    environmentId: number,
    changes: EnvironmentSecretChange[],
  ): Promise<void> {
    const existing = await environments.secrets.list(projectId, environmentId);
    const byId = new Map(existing.map((s) => [s.id, { type: s.type, name: s.name }]));
    const created: { type: string; name: string }[] = [];
    const renamed = new Set<number>();
    for (const change of changes) {
      if (change.operation === 'create') {
        created.push(change);
        continue;
      }
      const current = byId.get(change.id);
      if (!current) throw badRequest(`Secret ${change.id} not found in this variable group`);
      if (change.operation === 'delete') byId.delete(change.id);
      else if (change.name !== undefined && change.name !== current.name) {
        if (current.type === 'env' && !isEnvironmentVariableName(change.name)) throw validationFailed(ENV_NAME_INVALID);
        byId.set(change.id, { ...current, name: change.name });
        renamed.add(change.id);
      }
    }
    const keyOf = (s: { type: string; name: string }) => `${s.type}:${s.name}`;
    const count = new Map<string, number>();
    for (const secret of [...byId.values(), ...created]) count.set(keyOf(secret), (count.get(keyOf(secret)) ?? 0) + 1);
    // Only names this request sets can clash: stored duplicates (from an old restore, say) are left as they are.
    const named = [...[...renamed].flatMap((id) => byId.get(id) ?? []), ...created];
    const clash = named.find((secret) => (count.get(keyOf(secret)) ?? 0) > 1);
    if (clash) throw badRequest(`Secret ${clash.name} already exists`);

    for (const change of changes) {
      if (change.operation === 'create') {
        await environments.secrets.insert({
          project_id: projectId,
          environment_id: environmentId,
          type: change.type,
          name: change.name,
          secret: secrets.seal(change.secret),
        });
      } else if (change.operation === 'update') {
        // An empty secret keeps the stored value, as in Semaphore (clients send the name without the value).
        await environments.secrets.update(projectId, environmentId, change.id, {
          ...(change.name === undefined ? {} : { name: change.name }),
          ...(change.secret === '' ? {} : { secret: secrets.seal(change.secret) }),
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
      // Secrets first: a refused change leaves the group as it was.
      await applySecretChanges(projectId, id, listChanges(body));
      await environments.update(projectId, id, { name: body.name, json: body.json, env: body.env });
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
