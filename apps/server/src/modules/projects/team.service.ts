import type { ProjectRoleSlug, TeamMember } from '@gantry/contract';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import type { EventsService } from '../events/events.service.ts';
import type { UserAccounts } from '../users/user-accounts.ts';
import type { ProjectsRepository, TeamSortColumn } from './projects.repository.ts';
import type { ProjectRow } from './projects.table.ts';
import type { UserRow } from '../users/users.table.ts';
import { isUniqueViolation } from '../../db/errors.ts';

const LAST_OWNER = 'A project must keep at least one owner';

interface TeamDeps {
  projects: ProjectsRepository;
  users: UserAccounts;
  events: EventsService;
  clock: Clock;
}

export function createTeamService({ projects, users, events, clock }: TeamDeps) {
  async function getMembership(projectId: number, userId: number) {
    const membership = await projects.findMembership(projectId, userId);
    if (!membership) throw notFound('Team member');
    return membership;
  }

  /**
   * Changes a member's role or membership under the one rule for every way out of ownership (leaving,
   * being removed, being demoted, by oneself or by another): the last owner stays, so that someone can
   * still manage the project. The check and the change are one step of the store, so two owners stepping
   * down at the same time cannot both pass it. False when the member already had the role.
   */
  async function changeKeepingOwner(
    projectId: number,
    userId: number,
    role: ProjectRoleSlug | undefined,
    notMember: () => Error,
  ): Promise<boolean> {
    const outcome = await projects.changeMemberKeepingOwner(projectId, userId, role);
    if (outcome === 'not_member') throw notMember();
    if (outcome === 'last_owner') throw badRequest(LAST_OWNER);
    return outcome === 'changed';
  }

  async function describeUser(userId: number): Promise<string> {
    return (await users.findById(userId))?.username ?? `#${userId}`;
  }

  return {
    async list(project: ProjectRow, sort: TeamSortColumn, order: 'asc' | 'desc'): Promise<TeamMember[]> {
      return projects.listMembers(project.id, sort, order);
    },

    async get(project: ProjectRow, userId: number): Promise<TeamMember> {
      await getMembership(project.id, userId);
      const member = (await projects.listMembers(project.id, 'name', 'asc')).find((m) => m.user_id === userId);
      if (!member) throw notFound('Team member');
      return member;
    },

    async add(actor: UserRow, project: ProjectRow, userId: number, role: ProjectRoleSlug): Promise<void> {
      const user = await users.findById(userId);
      if (!user) throw badRequest('User not found');
      if (await projects.findMembership(project.id, userId))
        throw conflict(`User ${user.username} is already a member of this project`);
      try {
        await projects.insertMember({
          project_id: project.id,
          user_id: userId,
          role,
          created: toTimestamp(clock.now()),
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`User ${user.username} is already a member of this project`);
        throw error;
      }
      await events.record({
        userId: actor.id,
        projectId: project.id,
        objectType: 'user',
        objectId: userId,
        description: `User ${user.username} added to the team as ${role}`,
      });
    },

    async updateRole(actor: UserRow, project: ProjectRow, userId: number, role: ProjectRoleSlug): Promise<void> {
      if (!(await changeKeepingOwner(project.id, userId, role, () => notFound('Team member')))) return;
      await events.record({
        userId: actor.id,
        projectId: project.id,
        objectType: 'user',
        objectId: userId,
        description: `User ${await describeUser(userId)} is now ${role}`,
      });
    },

    async leave(actor: UserRow, project: ProjectRow): Promise<void> {
      await changeKeepingOwner(project.id, actor.id, undefined, () =>
        badRequest('You are not a member of this project'),
      );
      await events.record({
        userId: actor.id,
        projectId: project.id,
        objectType: 'user',
        objectId: actor.id,
        description: `User ${actor.username} left the project`,
      });
    },

    async remove(actor: UserRow, project: ProjectRow, userId: number): Promise<void> {
      await changeKeepingOwner(project.id, userId, undefined, () => notFound('Team member'));
      await events.record({
        userId: actor.id,
        projectId: project.id,
        objectType: 'user',
        objectId: userId,
        description: `User ${await describeUser(userId)} removed from the team`,
      });
    },
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
