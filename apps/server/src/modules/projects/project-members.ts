import type { ProjectRoleSlug } from '@gantry/contract';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { ProjectsRepository } from './projects.repository.ts';

/** Project memberships as other modules change them: identity providers' group mappings. */
export function createProjectMembers({ projects, clock }: { projects: ProjectsRepository; clock: Clock }) {
  return {
    /**
     * Gives the user exactly this role in the project, or takes the membership away (undefined); a
     * project that does not exist (any more) is left alone, and so is its last owner: a mapping
     * cannot leave a project without one, any more than the team API can.
     */
    async setMappedRole(projectId: number, userId: number, role: ProjectRoleSlug | undefined): Promise<void> {
      if (!(await projects.findById(projectId))) return;
      const membership = await projects.findMembership(projectId, userId);
      if (membership) await projects.changeMemberKeepingOwner(projectId, userId, role);
      else if (role)
        await projects.insertMember({
          project_id: projectId,
          user_id: userId,
          role,
          created: toTimestamp(clock.now()),
        });
    },
  };
}

export type ProjectMembers = ReturnType<typeof createProjectMembers>;
