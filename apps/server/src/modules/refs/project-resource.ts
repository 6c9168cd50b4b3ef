import type { ResourceRefs } from '@gantry/contract';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { EventsService } from '../events/events.service.ts';
import type { UserRow } from '../users/users.table.ts';
import { assertUnused } from './assert-unused.ts';
import type { RefsRepository } from './refs.repository.ts';

/** Who uses each kind of project resource: the lookups the resources' services are given. */
export type ResourceRefsLookup = Pick<
  RefsRepository,
  'forKey' | 'forRepository' | 'forInventory' | 'forEnvironment' | 'forTemplate'
>;

/** A body may repeat the id of the project in its URL, as Semaphore's clients do; another project's id is refused. */
export function assertBodyInProject(projectId: number, body: { project_id?: number | undefined }): void {
  if (body.project_id !== undefined && body.project_id !== projectId)
    throw badRequest('Project ID in body and URL must be the same');
}

interface ProjectResourceOptions<Row> {
  /** How messages and audit events name the resource: "Access key", "Variable group". */
  label: string;
  /** The audit event's object type: "key", "environment". */
  objectType: string;
  rows: {
    find(projectId: number, id: number): Promise<Row | undefined>;
    // The row type is read from find; a list row (a schedule with its template's name) has more than is written.
    insert(row: NoInfer<Omit<Row, 'id'>>): Promise<number>;
    update(projectId: number, id: number, changes: NoInfer<Partial<Omit<Row, 'id' | 'project_id'>>>): Promise<void>;
  };
  events: EventsService;
}

/** What every project resource's service does the same way: read a row or fail, and log what changed. */
export function projectResource<Row>({ label, objectType, rows, events }: ProjectResourceOptions<Row>) {
  async function get(projectId: number, id: number): Promise<Row> {
    const row = await rows.find(projectId, id);
    if (!row) throw notFound(label);
    return row;
  }
  function record(actor: UserRow, projectId: number, id: number, description: string): Promise<void> {
    return events.record({ userId: actor.id, projectId, objectType, objectId: id, description });
  }
  /** The row a body sent to its URL replaces: 400 when the body names another id, 404 when there is no such row. */
  async function getForUpdate(projectId: number, id: number, body: { id?: number | undefined }): Promise<Row> {
    if (body.id !== undefined && body.id !== id) throw badRequest(`${label} ID in body and URL must be the same`);
    return get(projectId, id);
  }
  return {
    /** The row, or 404 when the project has no such resource. */
    get,
    getForUpdate,
    /**
     * Changes the row a body sent to its URL replaces, and logs it. The changes are worked out once the row is
     * found (from it, when they depend on it), so a missing row answers 404 before the body is checked further.
     */
    async update(
      actor: UserRow,
      projectId: number,
      id: number,
      body: { id?: number | undefined; name: string },
      changesFrom: (current: Row) => Promise<Partial<Omit<Row, 'id' | 'project_id'>>>,
    ): Promise<void> {
      const current = await getForUpdate(projectId, id, body);
      await rows.update(projectId, id, await changesFrom(current));
      await record(actor, projectId, id, `${label} ${body.name} updated`);
    },
    /** The row another resource points at, or 400: the id in a body is the caller's mistake. */
    async assertExists(projectId: number, id: number, what = label): Promise<Row> {
      const row = await rows.find(projectId, id);
      if (!row) throw badRequest(`${what} not found in this project`);
      return row;
    },
    record,
    /** Stores a new row and logs who created it (the rows a new project is seeded with have no actor). */
    async create<New extends Omit<Row, 'id'> & { project_id: number }>(
      actor: UserRow | undefined,
      row: New,
      name: string,
    ): Promise<New & { id: number }> {
      const id = await rows.insert(row);
      if (actor) await record(actor, row.project_id, id, `${label} ${name} created`);
      return { ...row, id };
    },
  };
}

/** What makeBodyOperations uses of a project resource whose row is its body's fields with an id, a project and a time. */
interface BodyFieldsResource<Fields, Row> {
  get(projectId: number, id: number): Promise<Row>;
  create(actor: UserRow | undefined, row: Fields & { project_id: number; created: string }, name: string): Promise<Row>;
  update(
    actor: UserRow,
    projectId: number,
    id: number,
    body: { id?: number | undefined; name: string },
    changesFrom: () => Promise<Fields>,
  ): Promise<void>;
}

interface BodyOperationsOptions<Fields, Row, Body, Wire> {
  /** The columns a body stands for, once what it points at is checked: the same for a new row and a change. */
  fieldsOf(projectId: number, body: Body): Promise<Fields>;
  toWire(row: Row): Wire;
  clock: Clock;
}

/**
 * Reading, creating and changing a resource whose columns come from its body alone (repositories, inventories,
 * integrations), answered in its wire form.
 */
export function makeBodyOperations<Fields, Row, Body extends { id?: number | undefined; name: string }, Wire>(
  resource: BodyFieldsResource<Fields, Row>,
  { fieldsOf, toWire, clock }: BodyOperationsOptions<Fields, Row, Body, Wire>,
) {
  return {
    async get(projectId: number, id: number): Promise<Wire> {
      return toWire(await resource.get(projectId, id));
    },
    async create(actor: UserRow | undefined, projectId: number, body: Body): Promise<Wire> {
      const row = { ...(await fieldsOf(projectId, body)), project_id: projectId, created: toTimestamp(clock.now()) };
      return toWire(await resource.create(actor, row, body.name));
    },
    update(actor: UserRow, projectId: number, id: number, body: Body): Promise<void> {
      return resource.update(actor, projectId, id, body, () => fieldsOf(projectId, body));
    },
  };
}

interface UsedResourceOptions<Row> extends ProjectResourceOptions<Row> {
  rows: ProjectResourceOptions<Row>['rows'] & { delete(projectId: number, id: number): Promise<void> };
  usedBy(projectId: number, id: number): Promise<ResourceRefs>;
}

/** A resource others point at (keys, repositories, ...): it lists its users and cannot be deleted while used. */
export function usedResource<Row extends { name: string }>(options: UsedResourceOptions<Row>) {
  const { label, rows, usedBy } = options;
  const resource = projectResource(options);
  return {
    ...resource,
    async refs(projectId: number, id: number): Promise<ResourceRefs> {
      // Another project's id must not read as "used nowhere".
      await resource.get(projectId, id);
      return usedBy(projectId, id);
    },
    async remove(actor: UserRow, projectId: number, id: number): Promise<void> {
      const current = await resource.get(projectId, id);
      assertUnused(label, await usedBy(projectId, id));
      await rows.delete(projectId, id);
      await resource.record(actor, projectId, id, `${label} ${current.name} deleted`);
    },
  };
}
