import type { ProjectRoleSlug } from '@gantry/contract';
import type { Db } from '../../db/database.ts';

export interface ApproverRow {
  id: number;
  username: string;
  name: string;
  role: string;
}

/** Who may approve in a project: what every approval gate (workflow step, template) asks of the store. */
export function createApprovalsRepository(db: Db) {
  return {
    /** Members of the project who are not guests and are listed by id or hold one of the roles. */
    listApprovers(
      projectId: number,
      userIds: readonly number[],
      roles: readonly ProjectRoleSlug[],
    ): Promise<ApproverRow[]> {
      if (userIds.length === 0 && roles.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('project_user')
        .innerJoin('users', 'users.id', 'project_user.user_id')
        .select(['users.id', 'users.username', 'users.name', 'project_user.role'])
        .where('project_user.project_id', '=', projectId)
        .where('project_user.role', '!=', 'guest')
        .where((eb) =>
          eb.or([
            ...(userIds.length > 0 ? [eb('project_user.user_id', 'in', userIds)] : []),
            ...(roles.length > 0 ? [eb('project_user.role', 'in', roles)] : []),
          ]),
        )
        .orderBy('users.username')
        .execute();
    },
  };
}

export type ApprovalsRepository = ReturnType<typeof createApprovalsRepository>;
