import type { ProjectRoleSlug } from '@gantry/contract';
import type { ProjectMembers } from '../../projects/project-members.ts';
import type { UserAccounts } from '../../users/user-accounts.ts';
import type { UserRow } from '../../users/users.table.ts';

/** Which identity-provider groups make a user an admin or a member of a project. */
export interface GroupMapping {
  admin_groups?: string[] | undefined;
  project_roles?: Record<string, Array<{ project_id: number; role: ProjectRoleSlug }>> | undefined;
}

const ROLE_RANK: Record<ProjectRoleSlug, number> = { guest: 1, task_runner: 2, manager: 3, owner: 4 };

export function isGroupMappingConfigured(mapping: GroupMapping): boolean {
  return (mapping.admin_groups?.length ?? 0) > 0 || Object.keys(mapping.project_roles ?? {}).length > 0;
}

/** The strongest role each mapped project grants to someone in these groups (group names compare case-insensitively). */
export function resolveProjectRoles(mapping: GroupMapping, groups: string[]): Map<number, ProjectRoleSlug | undefined> {
  const held = new Set(groups.map((g) => g.toLowerCase()));
  const roles = new Map<number, ProjectRoleSlug | undefined>();
  for (const [group, grants] of Object.entries(mapping.project_roles ?? {})) {
    for (const grant of grants) {
      const current = roles.get(grant.project_id);
      if (!roles.has(grant.project_id)) roles.set(grant.project_id, undefined);
      if (!held.has(group.toLowerCase())) continue;
      if (current === undefined || ROLE_RANK[grant.role] > ROLE_RANK[current]) roles.set(grant.project_id, grant.role);
    }
  }
  return roles;
}

export function createGroupMapper({ users, members }: { users: UserAccounts; members: ProjectMembers }) {
  return {
    /**
     * Brings the user's admin flag and memberships of the mapped projects in line with the groups the
     * provider reports at this sign-in. Mapped settings are owned by the provider: leaving a group
     * revokes what it granted. Projects no mapping names are left alone.
     */
    async apply(user: UserRow, groups: string[], mapping: GroupMapping): Promise<UserRow> {
      let updated = user;
      if ((mapping.admin_groups?.length ?? 0) > 0) {
        const held = new Set(groups.map((g) => g.toLowerCase()));
        const admin = mapping.admin_groups?.some((g) => held.has(g.toLowerCase())) ? 1 : 0;
        if (admin !== user.admin) {
          await users.setAdmin(user.id, admin);
          updated = { ...user, admin };
        }
      }
      for (const [projectId, role] of resolveProjectRoles(mapping, groups))
        await members.setMappedRole(projectId, user.id, role);
      return updated;
    },
  };
}

export type GroupMapper = ReturnType<typeof createGroupMapper>;
