import type { Repository, RepositoryBody } from '@gantry/contract';
import { hasPermissions, Permission, withoutUrlCredentials } from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import type { EventsService } from '../events/events.service.ts';
import type { KeysService } from '../keys/keys.service.ts';
import {
  assertBodyInProject,
  makeBodyOperations,
  type ResourceRefsLookup,
  usedResource,
} from '../refs/project-resource.ts';
import type { RepositoriesRepository, RepositorySort } from './repositories.repository.ts';
import type { RepositoryRow } from './repositories.table.ts';
import { columnsOf } from '../../db/row-fields.ts';
import type { ProjectAccess } from '../projects/projects.service.ts';

type RepositoryInput = z.output<typeof RepositoryBody>;

function toRepository(row: RepositoryRow): Repository {
  return columnsOf(row, ['id', 'project_id', 'name', 'git_url', 'git_branch', 'ssh_key_id']);
}

/**
 * A repository as `access` may see it: credentials written into its URL are for who manages the
 * project's resources (and may change them), like the keys they could have been kept in.
 */
function shownTo(access: ProjectAccess | undefined, repository: Repository): Repository {
  if (!access || hasPermissions(access.permissions, Permission.manageProjectResources)) return repository;
  return { ...repository, git_url: withoutUrlCredentials(repository.git_url) };
}

interface RepositoriesDeps {
  repositories: RepositoriesRepository;
  keys: KeysService;
  refs: ResourceRefsLookup;
  events: EventsService;
  clock: Clock;
}

export function createRepositoriesService({ repositories, keys, refs, events, clock }: RepositoriesDeps) {
  const resource = usedResource({
    label: 'Repository',
    objectType: 'repository',
    rows: repositories,
    events,
    usedBy: refs.forRepository,
  });

  async function fieldsOf(projectId: number, body: RepositoryInput) {
    assertBodyInProject(projectId, body);
    await keys.assertLoginKey(projectId, body.ssh_key_id);
    return {
      name: body.name,
      git_url: body.git_url,
      // Stored as sent, as in Semaphore, also for a local path (whose tasks use it in place and ignore it).
      git_branch: body.git_branch ?? '',
      ssh_key_id: body.ssh_key_id,
    };
  }

  const operations = makeBodyOperations(resource, { fieldsOf, toWire: toRepository, clock });

  return {
    async list(access: ProjectAccess, sort: RepositorySort, order: 'asc' | 'desc'): Promise<Repository[]> {
      return (await repositories.list(access.project.id, sort, order)).map((row) => shownTo(access, toRepository(row)));
    },
    ...operations,
    async get(projectId: number, repositoryId: number, access?: ProjectAccess): Promise<Repository> {
      return shownTo(access, await operations.get(projectId, repositoryId));
    },
    assertExists: resource.assertExists,
    refs: resource.refs,
    remove: resource.remove,
  };
}

export type RepositoriesService = ReturnType<typeof createRepositoriesService>;
