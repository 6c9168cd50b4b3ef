import type { ProjectRoleSlug } from '@gantry/contract';
import type { Db, Dialect } from '../../db/database.ts';
import { retryOnConflict } from '../../db/errors.ts';
import { insertRow } from '../../db/insert.ts';
import { lockForUpdate } from '../../db/row-lock.ts';
import { hasColumnsToSet } from '../../db/row-changes.ts';
import type { ProjectRow, ProjectTable, ProjectUserRow } from './projects.table.ts';
import type { Insertable, Updateable } from 'kysely';

/** What came of a change of one member under the last-owner rule. */
type MemberChangeOutcome = 'changed' | 'unchanged' | 'not_member' | 'last_owner';

export type TeamSortColumn = 'name' | 'username' | 'email' | 'role';

export interface TeamMemberRow {
  id: number;
  user_id: number;
  username: string;
  name: string;
  email: string;
  role: ProjectRoleSlug;
}

export function createProjectsRepository(db: Db, dialect: Dialect) {
  return {
    listAll(): Promise<ProjectRow[]> {
      return db.selectFrom('project').selectAll().orderBy('name').orderBy('id').execute();
    },
    listForUser(userId: number): Promise<ProjectRow[]> {
      return db
        .selectFrom('project')
        .innerJoin('project_user', 'project_user.project_id', 'project.id')
        .selectAll('project')
        .where('project_user.user_id', '=', userId)
        .orderBy('project.name')
        .orderBy('project.id')
        .execute();
    },
    findById(id: number): Promise<ProjectRow | undefined> {
      return db.selectFrom('project').selectAll().where('id', '=', id).executeTakeFirst();
    },
    insert(row: Insertable<ProjectTable>): Promise<number> {
      return insertRow(db, dialect, 'project', row);
    },
    async update(id: number, changes: Updateable<ProjectTable>): Promise<void> {
      if (!hasColumnsToSet(changes)) return;
      await db.updateTable('project').set(changes).where('id', '=', id).execute();
    },
    /**
     * Deletes a project with everything in it, children before parents: MySQL checks foreign keys
     * row by row, so it cannot rely on cascades between sibling tables.
     */
    async delete(id: number): Promise<void> {
      await retryOnConflict(() =>
        db.transaction().execute(async (trx) => {
          await trx.updateTable('template').set({ build_template_id: null }).where('project_id', '=', id).execute();
          for (const table of [
            'workflow_approval',
            'workflow_step_run',
            'workflow_run',
            'workflow_run_stat_day',
            'workflow_template',
            'workflow_resource',
            'workflow_revision',
            'workflow',
            'terraform_lock',
            'terraform_state',
            'terraform_alias',
            'schedule',
            'integration_alias',
            'integration_matcher',
            'integration_extract_value',
            'integration',
            'task_approval',
            // Tasks before their counters: a task finishing meanwhile locks its row, then its counters, and
            // taking them in the same order makes the delete wait for it instead of deadlocking with it.
            'task',
            'task_stat_day',
            'runner',
            'template_vault',
            'inventory',
            'template',
            'repository',
            'environment_secret',
            'environment',
            'access_key',
            'view',
          ] as const) {
            await trx.deleteFrom(table).where('project_id', '=', id).execute();
          }
          await trx.deleteFrom('project').where('id', '=', id).execute();
        }),
      );
    },

    /** A project with the user's role in it (null when not a member), in one round trip: every project request reads both. */
    async findWithRole(
      projectId: number,
      userId: number,
    ): Promise<{ project: ProjectRow; role: ProjectUserRow['role'] | null } | undefined> {
      const row = await db
        .selectFrom('project')
        .leftJoin('project_user', (join) =>
          join.onRef('project_user.project_id', '=', 'project.id').on('project_user.user_id', '=', userId),
        )
        .selectAll('project')
        .select('project_user.role as member_role')
        .where('project.id', '=', projectId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { member_role, ...project } = row;
      return { project, role: member_role };
    },
    findMembership(projectId: number, userId: number): Promise<ProjectUserRow | undefined> {
      return db
        .selectFrom('project_user')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },
    listMembers(projectId: number, sort: TeamSortColumn, order: 'asc' | 'desc'): Promise<TeamMemberRow[]> {
      const column = sort === 'role' ? 'project_user.role' : (`users.${sort}` as const);
      return db
        .selectFrom('project_user')
        .innerJoin('users', 'users.id', 'project_user.user_id')
        .select([
          'users.id as id',
          'users.id as user_id',
          'users.username',
          'users.name',
          'users.email',
          'project_user.role',
        ])
        .where('project_user.project_id', '=', projectId)
        .orderBy(column, order)
        .orderBy('users.id', order)
        .execute();
    },
    async insertMember(row: Omit<ProjectUserRow, 'id'>): Promise<void> {
      await db.insertInto('project_user').values(row).execute();
    },
    async listMemberIds(projectId: number): Promise<number[]> {
      const rows = await db.selectFrom('project_user').select('user_id').where('project_id', '=', projectId).execute();
      return rows.map((r) => r.user_id);
    },
    /**
     * Gives a member another role, or takes the membership away (role undefined), unless that leaves the
     * project without an owner. The project's row is locked first, so that changes of one team at the same
     * time (two owners demoting each other, both leaving) are taken one after the other, each counting the
     * owners the one before left.
     */
    changeMemberKeepingOwner(
      projectId: number,
      userId: number,
      role: ProjectRoleSlug | undefined,
    ): Promise<MemberChangeOutcome> {
      return retryOnConflict(() =>
        db.transaction().execute(async (trx): Promise<MemberChangeOutcome> => {
          await lockForUpdate(trx.selectFrom('project').select('id').where('id', '=', projectId), dialect).execute();
          // Locking reads read what the change before committed, even where a transaction otherwise reads
          // from an older snapshot (MySQL's repeatable read).
          const owners = await lockForUpdate(
            trx
              .selectFrom('project_user')
              .select(['user_id', 'role'])
              .where('project_id', '=', projectId)
              .where((eb) => eb.or([eb('user_id', '=', userId), eb('role', '=', 'owner')])),
            dialect,
          ).execute();
          const membership = owners.find((row) => row.user_id === userId);
          if (!membership) return 'not_member';
          if (membership.role === role) return 'unchanged';
          if (membership.role === 'owner' && owners.filter((row) => row.role === 'owner').length <= 1) {
            return 'last_owner';
          }
          if (role) {
            await trx
              .updateTable('project_user')
              .set({ role })
              .where('project_id', '=', projectId)
              .where('user_id', '=', userId)
              .execute();
          } else {
            await trx
              .deleteFrom('project_user')
              .where('project_id', '=', projectId)
              .where('user_id', '=', userId)
              .execute();
          }
          return 'changed';
        }),
      );
    },
  };
}

export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
