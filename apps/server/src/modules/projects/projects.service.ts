import { rm } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { CreateProjectBody, Project, ProjectRole, UpdateProjectBody } from '@gantry/contract';
import { Permission, ROLE_PERMISSIONS, type ProjectRoleSlug } from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { badRequest, forbidden } from '../../errors.ts';
import type { EventsService } from '../events/events.service.ts';
import type { UserRow } from '../users/users.table.ts';
import type { ProjectsRepository } from './projects.repository.ts';
import type { ProjectRow } from './projects.table.ts';
import { columnsOf, flagsOf } from '../../db/row-fields.ts';

type CreateProjectInput = z.output<typeof CreateProjectBody>;
type UpdateProjectInput = z.output<typeof UpdateProjectBody>;

const ALL_PERMISSIONS = Object.values(Permission).reduce((all, bit) => all | bit, 0);

export function toProject(row: ProjectRow): Project {
  return {
    ...columnsOf(row, ['id', 'name', 'created', 'alert_chat', 'max_parallel_tasks', 'type']),
    ...flagsOf(row, ['alert']),
    default_secret_storage_id: null,
  };
}

/** Admins create projects, and everyone else where the configuration allows it. */
function canCreateProject(config: Pick<Config, 'non_admin_can_create_project'>, actor: UserRow): boolean {
  return actor.admin === 1 || config.non_admin_can_create_project;
}

export function assertCanCreateProject(config: Pick<Config, 'non_admin_can_create_project'>, actor: UserRow): void {
  if (!canCreateProject(config, actor)) throw forbidden('You are not allowed to create projects');
}

/** Resolves a user's access to a project; undefined when the project is unknown or hidden from them. */
async function findProjectAccess(
  projects: Pick<ProjectsRepository, 'findWithRole'>,
  actor: UserRow,
  projectId: number,
): Promise<ProjectAccess | undefined> {
  const found = await projects.findWithRole(projectId, actor.id);
  if (!found) return undefined;
  const { project } = found;
  if (found.role !== null) {
    const role = found.role;
    const permissions = actor.admin === 1 ? ALL_PERMISSIONS : ROLE_PERMISSIONS[role];
    return { project, role, permissions };
  }
  if (actor.admin === 1) return { project, role: '', permissions: ALL_PERMISSIONS };
  return undefined;
}

/** A user with their permission bits in one project. */
export interface MemberAccess {
  user: UserRow;
  permissions: number;
}

/**
 * A user and their rights in a project as they are now (work started on someone's behalf runs with them);
 * undefined when the user is gone or the project is hidden from them.
 */
export async function findMemberAccess(
  findUser: (userId: number) => Promise<UserRow | undefined>,
  projects: Pick<ProjectsRepository, 'findWithRole'>,
  userId: number,
  projectId: number,
): Promise<MemberAccess | undefined> {
  const user = await findUser(userId);
  const access = user ? await findProjectAccess(projects, user, projectId) : undefined;
  return user && access ? { user, permissions: access.permissions } : undefined;
}

/** What the caller may do in a project: the member's role, or every bit for an admin. */
export interface ProjectAccess {
  project: ProjectRow;
  role: ProjectRoleSlug | '';
  permissions: number;
}

interface ProjectsDeps {
  config: Config;
  clock: Clock;
  projects: ProjectsRepository;
  events: EventsService;
  seedProject(projectId: number): Promise<void>;
  /** Builds a demo project (templates that run out of the box) for a creation with the demo flag. */
  createDemo(actor: UserRow, body: CreateProjectInput): Promise<Project>;
  /** Files on disk that belong to the project alone (working copies, its demo repository). */
  listProjectFiles(projectId: number): Promise<string[]>;
  /** Force-stops the project's queued and running tasks: nothing may keep running for a deleted project. */
  stopProjectTasks(projectId: number): Promise<void>;
  logger: Pick<FastifyBaseLogger, 'warn'>;
}

export function createProjectsService({
  config,
  clock,
  projects,
  events,
  seedProject,
  createDemo,
  listProjectFiles,
  stopProjectTasks,
  logger,
}: ProjectsDeps) {
  return {
    async list(actor: UserRow): Promise<Project[]> {
      const rows = actor.admin === 1 ? await projects.listAll() : await projects.listForUser(actor.id);
      return rows.map(toProject);
    },

    canCreate(actor: UserRow): boolean {
      return canCreateProject(config, actor);
    },

    async create(actor: UserRow, body: CreateProjectInput): Promise<Project> {
      assertCanCreateProject(config, actor);
      if (body.demo) return createDemo(actor, body);
      const row = {
        name: body.name,
        created: toTimestamp(clock.now()),
        alert: body.alert ? 1 : 0,
        alert_chat: body.alert_chat ?? null,
        max_parallel_tasks: body.max_parallel_tasks ?? 0,
        type: body.type ?? '',
      };
      const id = await projects.insert(row);
      await projects.insertMember({ project_id: id, user_id: actor.id, role: 'owner', created: row.created });
      await seedProject(id);
      await events.record({
        userId: actor.id,
        projectId: id,
        objectType: 'project',
        objectId: id,
        description: `Project ${row.name} created`,
      });
      return toProject({ ...row, id });
    },

    /** Resolves the caller's access to a project; undefined when the project is unknown or hidden from them. */
    findAccess: (actor: UserRow, projectId: number) => findProjectAccess(projects, actor, projectId),

    role(access: ProjectAccess): ProjectRole {
      return { role: access.role, permissions: access.permissions };
    },

    async update(actor: UserRow, project: ProjectRow, body: UpdateProjectInput): Promise<void> {
      if (body.id !== undefined && body.id !== project.id)
        throw badRequest('Project ID in body and URL must be the same');
      // A PUT replaces the project, as in Semaphore: Go clients leave false, 0 and "" out of the body.
      await projects.update(project.id, {
        name: body.name,
        alert: body.alert ? 1 : 0,
        alert_chat: body.alert_chat ?? null,
        max_parallel_tasks: body.max_parallel_tasks ?? 0,
        type: body.type ?? '',
      });
      await events.record({
        userId: actor.id,
        projectId: project.id,
        objectType: 'project',
        objectId: project.id,
        description: `Project ${body.name} updated`,
      });
    },

    async remove(actor: UserRow, project: ProjectRow): Promise<void> {
      const files = await listProjectFiles(project.id);
      await stopProjectTasks(project.id);
      await projects.delete(project.id);
      for (const file of files) {
        try {
          await rm(file, { recursive: true, force: true, maxRetries: 3 });
        } catch (error) {
          // A task still running there may keep writing; the project itself is gone either way.
          logger.warn({ err: error, file }, "could not remove a deleted project's files");
        }
      }
      await events.record({
        userId: actor.id,
        objectType: 'project',
        objectId: project.id,
        description: `Project ${project.name} deleted`,
      });
    },
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
