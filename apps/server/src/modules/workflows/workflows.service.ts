import type {
  Workflow,
  WorkflowDefinition,
  WorkflowRevision,
  WorkflowRevisionSummary,
  WorkflowSummary,
  WorkflowValidation,
} from '@gantry/contract';
import { WorkflowDefinition as DefinitionSchema } from '@gantry/contract';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, notFound, validationFailed } from '../../errors.ts';
import type { EnvironmentsService } from '../environments/environments.service.ts';
import type { EventsService } from '../events/events.service.ts';
import type { InventoriesService } from '../inventories/inventories.service.ts';
import type { ProjectAccess } from '../projects/projects.service.ts';
import type { TemplatesService } from '../templates/templates.service.ts';
import type { UserRow } from '../users/users.table.ts';
import { checkWorkflow, listUses, type ProjectCatalog } from './workflow-checks.ts';
import { formatWorkflowYaml, toWorkflowFile } from './workflow-file.ts';
import type { RevisionRow, WorkflowsRepository } from './workflows.repository.ts';
import type { WorkflowRevisionRow, WorkflowRow } from './workflows.table.ts';

interface WorkflowsDeps {
  workflows: WorkflowsRepository;
  templates: TemplatesService;
  inventories: InventoriesService;
  environments: EnvironmentsService;
  listMembers: (projectId: number) => Promise<{ user_id: number; username: string; role: string }[]>;
  events: EventsService;
  clock: Clock;
}

/** A stored definition was valid when saved; reading it through the schema keeps its defaults current. */
const readDefinition = (row: WorkflowRevisionRow): WorkflowDefinition =>
  DefinitionSchema.parse(JSON.parse(row.definition));

const toWorkflow = (row: WorkflowRow, definition: WorkflowDefinition): Workflow => ({
  ...definition,
  id: row.id,
  project_id: row.project_id,
  name: row.name,
  description: row.description,
  revision: row.revision,
  created: row.created,
  updated: row.updated,
});

const changedMeanwhile = (revision: number) =>
  conflict(`The workflow was saved meanwhile as revision ${revision}; load it again and redo your changes there`);

export function createWorkflowsService(deps: WorkflowsDeps) {
  const { workflows, events, clock } = deps;

  async function getRow(projectId: number, id: number): Promise<WorkflowRow> {
    const row = await workflows.find(projectId, id);
    if (!row) throw notFound('Workflow');
    return row;
  }

  async function getRevision(projectId: number, id: number, number: number): Promise<RevisionRow> {
    const revision = await workflows.findRevision(projectId, id, number);
    if (!revision) throw notFound('Workflow version');
    return revision;
  }

  async function readCatalog(projectId: number): Promise<ProjectCatalog> {
    const [templates, inventories, environments, members] = await Promise.all([
      deps.templates.list(projectId, 'name', 'asc', {}),
      deps.inventories.list(projectId, 'asc', {}),
      deps.environments.list(projectId, 'asc'),
      deps.listMembers(projectId),
    ]);
    return { templates, inventories, environments, members };
  }

  async function check(access: ProjectAccess, definition: WorkflowDefinition): Promise<string[]> {
    return checkWorkflow(definition, await readCatalog(access.project.id), access.permissions);
  }

  async function assertValid(access: ProjectAccess, definition: WorkflowDefinition): Promise<void> {
    const errors = await check(access, definition);
    if (errors.length > 0) throw validationFailed(errors.join('; '));
  }

  const nameTaken = (name: string) => badRequest(`A workflow named "${name}" already exists in this project`);

  async function assertNameFree(projectId: number, name: string, id?: number): Promise<void> {
    const other = await workflows.findByName(projectId, name);
    if (other && other.id !== id) throw nameTaken(name);
  }

  /** Two saves racing for one name: the store's unique index decides, and the loser hears why. */
  async function saving<T>(name: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(name);
      throw error;
    }
  }

  const record = (actor: UserRow, projectId: number, id: number, name: string, description: string) =>
    events.record({ userId: actor.id, projectId, objectType: 'workflow', objectId: id, objectName: name, description });

  const revisionOf = (actor: UserRow, definition: WorkflowDefinition, created: string) => ({
    definition: JSON.stringify(definition),
    userId: actor.id,
    created,
    uses: listUses(definition),
  });

  return {
    async list(projectId: number): Promise<WorkflowSummary[]> {
      const rows = await workflows.list(projectId);
      return Promise.all(
        rows.map(async (row) => ({
          id: row.id,
          project_id: row.project_id,
          name: row.name,
          description: row.description,
          revision: row.revision,
          steps: readDefinition(await getRevision(projectId, row.id, row.revision)).steps.length,
          updated: row.updated,
        })),
      );
    },
    async get(projectId: number, id: number): Promise<Workflow> {
      const row = await getRow(projectId, id);
      return toWorkflow(row, readDefinition(await getRevision(projectId, id, row.revision)));
    },
    async validate(access: ProjectAccess, definition: WorkflowDefinition): Promise<WorkflowValidation> {
      const errors = await check(access, definition);
      return { valid: errors.length === 0, errors };
    },
    async create(actor: UserRow, access: ProjectAccess, definition: WorkflowDefinition): Promise<Workflow> {
      const projectId = access.project.id;
      await assertValid(access, definition);
      await assertNameFree(projectId, definition.name);
      const now = toTimestamp(clock.now());
      const row = await saving(definition.name, () =>
        workflows.insert(
          {
            project_id: projectId,
            name: definition.name,
            description: definition.description,
            created: now,
            updated: now,
          },
          revisionOf(actor, definition, now),
        ),
      );
      await record(actor, projectId, row.id, row.name, `Workflow ${row.name} created`);
      return toWorkflow(row, definition);
    },
    /**
     * Saves a new revision; a definition equal to the current one is no change and adds none. With
     * `basedOn` (the revision the edit started from), a save made over a newer revision is refused.
     */
    async update(
      actor: UserRow,
      access: ProjectAccess,
      id: number,
      definition: WorkflowDefinition,
      basedOn?: number,
    ): Promise<Workflow> {
      const projectId = access.project.id;
      const current = await getRow(projectId, id);
      if (basedOn !== undefined && basedOn !== current.revision) throw changedMeanwhile(current.revision);
      const currentDefinition = readDefinition(await getRevision(projectId, id, current.revision));
      if (JSON.stringify(currentDefinition) === JSON.stringify(definition)) return toWorkflow(current, definition);
      await assertValid(access, definition);
      await assertNameFree(projectId, definition.name, id);
      const now = toTimestamp(clock.now());
      const row = await saving(definition.name, () =>
        workflows.update(
          current,
          { name: definition.name, description: definition.description, updated: now },
          revisionOf(actor, definition, now),
        ),
      );
      if (!row) throw changedMeanwhile(current.revision + 1);
      await record(actor, projectId, id, row.name, `Workflow ${row.name} saved as revision ${row.revision}`);
      return toWorkflow(row, definition);
    },
    async remove(actor: UserRow, projectId: number, id: number): Promise<void> {
      const current = await getRow(projectId, id);
      await workflows.delete(projectId, id);
      await record(actor, projectId, id, current.name, `Workflow ${current.name} deleted`);
    },
    /** The current revision as a workflow file, with the names the project gives its templates and approvers. */
    async getYaml(projectId: number, id: number): Promise<string> {
      const row = await getRow(projectId, id);
      const definition = readDefinition(await getRevision(projectId, id, row.revision));
      const catalog = await readCatalog(projectId);
      const names = {
        templates: catalog.templates,
        inventories: catalog.inventories,
        environments: catalog.environments,
        users: catalog.members.map((m) => ({ id: m.user_id, name: m.username })),
      };
      return formatWorkflowYaml(toWorkflowFile(definition, names));
    },
    async listVersions(projectId: number, id: number): Promise<WorkflowRevisionSummary[]> {
      await getRow(projectId, id);
      return (await workflows.listRevisions(projectId, id)).map((r) => ({
        number: r.number,
        created: r.created,
        user_id: r.user_id,
        username: r.username,
      }));
    },
    async getVersion(projectId: number, id: number, number: number): Promise<WorkflowRevision> {
      const revision = await getRevision(projectId, id, number);
      return {
        number: revision.number,
        created: revision.created,
        user_id: revision.user_id,
        username: revision.username,
        definition: readDefinition(revision),
      };
    },
  };
}

export type WorkflowsService = ReturnType<typeof createWorkflowsService>;
