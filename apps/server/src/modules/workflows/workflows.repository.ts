import type { Db, Dialect } from '../../db/database.ts';
import { tryUpdate } from '../../db/conditional-write.ts';
import { insertRow } from '../../db/insert.ts';
import { projectRows } from '../../db/project-rows.ts';
import type { WorkflowUses } from './workflow-checks.ts';
import type { WorkflowRevisionRow, WorkflowRow } from './workflows.table.ts';

/** One saved change: the definition as JSON, who saved it and the resources it uses. */
interface RevisionInput {
  definition: string;
  userId: number | null;
  created: string;
  uses: WorkflowUses;
}

/** A revision with the name of who saved it (null once that user is deleted). */
export type RevisionRow = WorkflowRevisionRow & { username: string | null };
type RevisionSummaryRow = Omit<RevisionRow, 'id' | 'workflow_id' | 'project_id' | 'definition'>;

export function createWorkflowsRepository(db: Db, dialect: Dialect) {
  const rows = projectRows(db, dialect, 'workflow');
  // A restore hands in its own transaction: the work joins it instead of opening another.
  const atomically = <T>(work: (trx: Db) => Promise<T>): Promise<T> =>
    db.isTransaction ? work(db) : db.transaction().execute(work);

  async function addRevision(trx: Db, workflow: WorkflowRow, revision: RevisionInput): Promise<void> {
    await insertRow(trx, dialect, 'workflow_revision', {
      workflow_id: workflow.id,
      project_id: workflow.project_id,
      number: workflow.revision,
      definition: revision.definition,
      user_id: revision.userId,
      created: revision.created,
    });
    const owner = { workflow_id: workflow.id, project_id: workflow.project_id };
    await trx.deleteFrom('workflow_template').where('workflow_id', '=', workflow.id).execute();
    for (const templateId of revision.uses.templateIds)
      await insertRow(trx, dialect, 'workflow_template', { ...owner, template_id: templateId });
    await trx.deleteFrom('workflow_resource').where('workflow_id', '=', workflow.id).execute();
    for (const [kind, ids] of [
      ['inventory', revision.uses.inventoryIds],
      ['environment', revision.uses.environmentIds],
    ] as const)
      for (const resourceId of ids)
        await insertRow(trx, dialect, 'workflow_resource', { ...owner, kind, resource_id: resourceId });
  }

  return {
    list: (projectId: number): Promise<WorkflowRow[]> => rows.list(projectId, 'name'),
    find: rows.find,
    findByName: (projectId: number, name: string): Promise<WorkflowRow | undefined> =>
      rows.findWhere(projectId, 'name', name),
    findRevision(projectId: number, workflowId: number, number: number): Promise<RevisionRow | undefined> {
      return db
        .selectFrom('workflow_revision')
        .leftJoin('users', 'users.id', 'workflow_revision.user_id')
        .selectAll('workflow_revision')
        .select('users.username')
        .where('workflow_revision.project_id', '=', projectId)
        .where('workflow_revision.workflow_id', '=', workflowId)
        .where('workflow_revision.number', '=', number)
        .executeTakeFirst();
    },
    listRevisions(projectId: number, workflowId: number): Promise<RevisionSummaryRow[]> {
      return db
        .selectFrom('workflow_revision')
        .leftJoin('users', 'users.id', 'workflow_revision.user_id')
        .select([
          'workflow_revision.number',
          'workflow_revision.user_id',
          'workflow_revision.created',
          'users.username',
        ])
        .where('workflow_revision.project_id', '=', projectId)
        .where('workflow_revision.workflow_id', '=', workflowId)
        .orderBy('workflow_revision.number', 'desc')
        .execute();
    },
    /** Creates the workflow with its first revision, all or nothing. */
    insert(row: Omit<WorkflowRow, 'id' | 'revision'>, revision: RevisionInput): Promise<WorkflowRow> {
      return atomically(async (trx) => {
        const id = await insertRow(trx, dialect, 'workflow', { ...row, revision: 1 });
        const workflow = { ...row, id, revision: 1 };
        await addRevision(trx, workflow, revision);
        return workflow;
      });
    },
    /** Saves the next revision and makes it current, all or nothing. */
    update(
      current: WorkflowRow,
      changes: Pick<WorkflowRow, 'name' | 'description' | 'updated'>,
      revision: RevisionInput,
    ): Promise<WorkflowRow | undefined> {
      return atomically(async (trx) => {
        const workflow = { ...current, ...changes, revision: current.revision + 1 };
        // Only the writer that still sees the revision it read moves it on: two concurrent saves cannot share a number.
        const updated = await tryUpdate(
          trx
            .updateTable('workflow')
            .set({ ...changes, revision: workflow.revision })
            .where('project_id', '=', current.project_id)
            .where('id', '=', current.id)
            .where('revision', '=', current.revision),
        );
        if (!updated) return undefined;
        await addRevision(trx, workflow, revision);
        return workflow;
      });
    },
    async delete(projectId: number, id: number): Promise<void> {
      await atomically(async (trx) => {
        const runs = trx.selectFrom('workflow_run').select('id').where('workflow_id', '=', id);
        for (const table of ['workflow_approval', 'workflow_step_run'] as const)
          await trx.deleteFrom(table).where('project_id', '=', projectId).where('run_id', 'in', runs).execute();
        for (const table of [
          'workflow_run',
          'workflow_run_stat_day',
          'workflow_template',
          'workflow_revision',
        ] as const)
          await trx.deleteFrom(table).where('project_id', '=', projectId).where('workflow_id', '=', id).execute();
        await trx.deleteFrom('workflow').where('project_id', '=', projectId).where('id', '=', id).execute();
      });
    },
  };
}

export type WorkflowsRepository = ReturnType<typeof createWorkflowsRepository>;
