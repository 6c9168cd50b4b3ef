import type { TaskStatus } from '@gantry/contract';
import type { Db, Dialect } from '../../db/database.ts';
import { tryDelete } from '../../db/conditional-write.ts';
import { insertRow } from '../../db/insert.ts';
import type { TerraformAliasRow, TerraformLockRow, TerraformStateRow } from './terraform.table.ts';

export type StateSummaryRow = Omit<TerraformStateRow, 'state'> & { status: TaskStatus | null };

/** Every query is scoped by project and workspace inventory, except the lookups by alias the backend starts from. */
export function createTerraformRepository(db: Db, dialect: Dialect) {
  const states = () =>
    db
      .selectFrom('terraform_state')
      .leftJoin('task', 'task.id', 'terraform_state.task_id')
      .select([
        'terraform_state.id',
        'terraform_state.project_id',
        'terraform_state.inventory_id',
        'terraform_state.task_id',
        'terraform_state.created',
        'task.status as status',
      ]);

  /** A workspace's own aliases: not those made for one task's run. */
  const workspaceAliases = (projectId: number, inventoryId: number) =>
    db
      .selectFrom('terraform_alias')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('inventory_id', '=', inventoryId)
      .where('task_id', 'is', null);
  const deleteStates = (projectId: number, inventoryId: number) =>
    db.deleteFrom('terraform_state').where('project_id', '=', projectId).where('inventory_id', '=', inventoryId);

  return {
    listAliases(projectId: number, inventoryId: number): Promise<TerraformAliasRow[]> {
      return workspaceAliases(projectId, inventoryId).orderBy('id').execute();
    },
    findAlias(projectId: number, inventoryId: number, id: number): Promise<TerraformAliasRow | undefined> {
      return workspaceAliases(projectId, inventoryId).where('id', '=', id).executeTakeFirst();
    },
    findByAlias(alias: string): Promise<TerraformAliasRow | undefined> {
      return db.selectFrom('terraform_alias').selectAll().where('alias', '=', alias).executeTakeFirst();
    },
    /** The alias a task was given for a workspace, if it was given one. */
    findTaskAlias(projectId: number, inventoryId: number, taskId: number): Promise<TerraformAliasRow | undefined> {
      return db
        .selectFrom('terraform_alias')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('inventory_id', '=', inventoryId)
        .where('task_id', '=', taskId)
        .orderBy('id')
        .executeTakeFirst();
    },
    insertAlias(row: Omit<TerraformAliasRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'terraform_alias', row);
    },
    async updateAliasKey(projectId: number, id: number, authKeyId: number | null): Promise<void> {
      await db
        .updateTable('terraform_alias')
        .set({ auth_key_id: authKeyId })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .execute();
    },
    async deleteAlias(projectId: number, id: number): Promise<void> {
      await db.deleteFrom('terraform_alias').where('project_id', '=', projectId).where('id', '=', id).execute();
    },

    listStates(
      projectId: number,
      inventoryId: number,
      limit: number | undefined,
      offset: number,
    ): Promise<StateSummaryRow[]> {
      let query = states()
        .where('terraform_state.project_id', '=', projectId)
        .where('terraform_state.inventory_id', '=', inventoryId)
        .orderBy('terraform_state.id', 'desc')
        .offset(offset);
      // MySQL accepts OFFSET only after LIMIT.
      query = query.limit(limit ?? Number.MAX_SAFE_INTEGER);
      return query.execute();
    },
    async findState(
      projectId: number,
      inventoryId: number,
      id: number | 'latest',
    ): Promise<(StateSummaryRow & { state: string }) | undefined> {
      let query = states()
        .select('terraform_state.state')
        .where('terraform_state.project_id', '=', projectId)
        .where('terraform_state.inventory_id', '=', inventoryId);
      query =
        id === 'latest'
          ? query.orderBy('terraform_state.id', 'desc').limit(1)
          : query.where('terraform_state.id', '=', id);
      return query.executeTakeFirst();
    },
    insertState(row: Omit<TerraformStateRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'terraform_state', row);
    },
    async deleteState(projectId: number, inventoryId: number, id: number): Promise<boolean> {
      return tryDelete(deleteStates(projectId, inventoryId).where('id', '=', id));
    },
    async deleteAllStates(projectId: number, inventoryId: number): Promise<void> {
      await deleteStates(projectId, inventoryId).execute();
    },

    async findTaskStatus(taskId: number): Promise<TaskStatus | undefined> {
      return (await db.selectFrom('task').select('status').where('id', '=', taskId).executeTakeFirst())?.status;
    },

    findLock(projectId: number, inventoryId: number): Promise<TerraformLockRow | undefined> {
      return db
        .selectFrom('terraform_lock')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('inventory_id', '=', inventoryId)
        .executeTakeFirst();
    },
    /** Takes the workspace's lock; false when someone holds it (the primary key refuses a second row). */
    async tryLock(row: TerraformLockRow): Promise<boolean> {
      try {
        await db.insertInto('terraform_lock').values(row).execute();
        return true;
      } catch (error) {
        if (await this.findLock(row.project_id, row.inventory_id)) return false;
        throw error;
      }
    },
    /** Releases the lock if `lockId` holds it (any holder when undefined); true when a lock was removed. */
    async unlock(projectId: number, inventoryId: number, lockId: string | undefined): Promise<boolean> {
      let query = db
        .deleteFrom('terraform_lock')
        .where('project_id', '=', projectId)
        .where('inventory_id', '=', inventoryId);
      if (lockId !== undefined) query = query.where('lock_id', '=', lockId);
      return tryDelete(query);
    },
  };
}

export type TerraformRepository = ReturnType<typeof createTerraformRepository>;
