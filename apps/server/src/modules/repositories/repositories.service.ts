import type { Repository, RepositoryBody, ResourceRefs } from '@gantry/contract';
import { getGitUrlType } from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { EventsService } from '../events/events.service.ts';
import type { KeysService } from '../keys/keys.service.ts';
import { assertUnused } from '../refs/assert-unused.ts';
import type { RefsRepository } from '../refs/refs.repository.ts';
import type { UserRow } from '../users/users.table.ts';
import type { RepositoriesRepository, RepositorySort } from './repositories.repository.ts';
import type { RepositoryRow } from './repositories.table.ts';

type RepositoryInput = z.output<typeof RepositoryBody>;

function toRepository(row: RepositoryRow): Repository {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    git_url: row.git_url,
    git_branch: row.git_branch,
    ssh_key_id: row.ssh_key_id,
  };
}

interface RepositoriesDeps {
  repositories: RepositoriesRepository;
  keys: KeysService;
  refs: RefsRepository;
  events: EventsService;
  clock: Clock;
}

export function createRepositoriesService({ repositories, keys, refs, events, clock }: RepositoriesDeps) {
  async function getRow(projectId: number, id: number): Promise<RepositoryRow> {
    const row = await repositories.find(projectId, id);
    if (!row) throw notFound('Repository');
    return row;
  }

  async function toRow(projectId: number, body: RepositoryInput) {
    if (body.project_id !== undefined && body.project_id !== projectId)
      throw badRequest('Project ID in body and URL must be the same');
    await keys.assertLoginKey(projectId, body.ssh_key_id);
    const local = getGitUrlType(body.git_url) === 'local';
    return {
      name: body.name,
      git_url: body.git_url,
      git_branch: local ? '' : (body.git_branch ?? ''),
      ssh_key_id: body.ssh_key_id,
    };
  }

  const record = (actor: UserRow, projectId: number, id: number, description: string) =>
    events.record({ userId: actor.id, projectId, objectType: 'repository', objectId: id, description });

  return {
    async list(projectId: number, sort: RepositorySort, order: 'asc' | 'desc'): Promise<Repository[]> {
      return (await repositories.list(projectId, sort, order)).map(toRepository);
    },
    async get(projectId: number, id: number): Promise<Repository> {
      return toRepository(await getRow(projectId, id));
    },
    async assertExists(projectId: number, id: number): Promise<RepositoryRow> {
      const row = await repositories.find(projectId, id);
      if (!row) throw badRequest('Repository not found in this project');
      return row;
    },
    async create(actor: UserRow | undefined, projectId: number, body: RepositoryInput): Promise<Repository> {
      const row = { ...(await toRow(projectId, body)), project_id: projectId, created: toTimestamp(clock.now()) };
      const id = await repositories.insert(row);
      if (actor) await record(actor, projectId, id, `Repository ${row.name} created`);
      return toRepository({ ...row, id });
    },
    async update(actor: UserRow, projectId: number, id: number, body: RepositoryInput): Promise<void> {
      if (body.id !== undefined && body.id !== id) throw badRequest('Repository ID in body and URL must be the same');
      await getRow(projectId, id);
      await repositories.update(projectId, id, await toRow(projectId, body));
      await record(actor, projectId, id, `Repository ${body.name} updated`);
    },
    async refs(projectId: number, id: number): Promise<ResourceRefs> {
      // Another project's id must not read as "used nowhere".
      await getRow(projectId, id);
      return refs.forRepository(projectId, id);
    },
    async remove(actor: UserRow, projectId: number, id: number): Promise<void> {
      const current = await getRow(projectId, id);
      assertUnused('Repository', await refs.forRepository(projectId, id));
      await repositories.delete(projectId, id);
      await record(actor, projectId, id, `Repository ${current.name} deleted`);
    },
  };
}

export type RepositoriesService = ReturnType<typeof createRepositoriesService>;
