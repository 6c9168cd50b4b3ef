import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, Db, Dialect } from './database.ts';
import { insertRow } from './insert.ts';
import { hasColumnsToSet } from './row-changes.ts';

/** Tables whose rows belong to one project: an id of their own and the project's id. */
export type ProjectTable = {
  [K in keyof Database]: Database[K] extends { id: unknown; project_id: number } ? K : never;
}[keyof Database];

/** Columns a caller may change: never the row's id or the project it belongs to. */
export type RowChanges<T extends ProjectTable> = Partial<Omit<Selectable<Database[T]>, 'id' | 'project_id'>>;

/**
 * Kysely cannot relate a generic table name to its columns, so the queries below see every project
 * table as this one shape; the signatures of projectRows keep each caller typed to its own table.
 */
type ScopedView = Kysely<Record<string, { id: number; project_id: number; [column: string]: unknown }>>;

/**
 * The queries every project resource shares. Each one carries the project id, so a row of another
 * project can be neither read, changed nor deleted through them (rule 5 by construction).
 */
export function projectRows<T extends ProjectTable>(db: Db, dialect: Dialect, table: T) {
  type Row = Selectable<Database[T]>;
  const scoped = db as unknown as ScopedView;
  const name: string = table;
  return {
    /** The project's rows by one column, then by id so that ties keep a stable order. */
    list(projectId: number, column: keyof Row & string, order: 'asc' | 'desc' = 'asc'): Promise<Row[]> {
      return scoped
        .selectFrom(name)
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy(column, order)
        .orderBy('id')
        .execute() as Promise<Row[]>;
    },
    /** The project's rows whose `column` holds `value` (the runs of one workflow, the rows with a flag set), by id. */
    listWhere<C extends keyof Row & string>(
      projectId: number,
      column: C,
      value: Row[C],
      options: { order?: 'asc' | 'desc'; limit?: number } = {},
    ): Promise<Row[]> {
      const query = scoped
        .selectFrom(name)
        .selectAll()
        .where('project_id', '=', projectId)
        .where(column as string, '=', value)
        .orderBy('id', options.order ?? 'asc');
      return (options.limit === undefined ? query : query.limit(options.limit)).execute() as Promise<Row[]>;
    },
    find(projectId: number, id: number): Promise<Row | undefined> {
      return scoped
        .selectFrom(name)
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst() as Promise<Row | undefined>;
    },
    /** The project's first row (by id) whose `column` holds `value`, such as the row of a name. */
    findWhere<C extends keyof Row & string>(projectId: number, column: C, value: Row[C]): Promise<Row | undefined> {
      return scoped
        .selectFrom(name)
        .selectAll()
        .where('project_id', '=', projectId)
        .where(column as string, '=', value)
        .orderBy('id')
        .executeTakeFirst() as Promise<Row | undefined>;
    },
    insert(row: Insertable<Database[T]>): Promise<number> {
      return insertRow(db, dialect, table, row);
    },
    async update(projectId: number, id: number, changes: RowChanges<T>): Promise<void> {
      if (!hasColumnsToSet(changes)) return;
      await scoped.updateTable(name).set(changes).where('project_id', '=', projectId).where('id', '=', id).execute();
    },
    async delete(projectId: number, id: number): Promise<void> {
      await scoped.deleteFrom(name).where('project_id', '=', projectId).where('id', '=', id).execute();
    },
  };
}

/**
 * The rows that hang off one parent row of a project (an integration's rules, a variable group's secrets). Every
 * query carries the project's id and the parent's, so a row of another parent or another project can be neither
 * read, changed nor deleted through them.
 */
export function parentRows<T extends ProjectTable, P extends keyof Selectable<Database[T]> & string>(
  db: Db,
  dialect: Dialect,
  table: T,
  parentColumn: P,
  sortColumns: readonly (keyof Selectable<Database[T]> & string)[],
) {
  type Row = Selectable<Database[T]>;
  const scoped = db as unknown as ScopedView;
  const name: string = table;
  const parent: string = parentColumn;
  const rowsOf = (projectId: number, parentId: number) =>
    scoped.selectFrom(name).selectAll().where('project_id', '=', projectId).where(parent, '=', parentId);
  return {
    /** The parent's rows by the sort columns, each in `order`, then by id. */
    list(projectId: number, parentId: number, order: 'asc' | 'desc' = 'asc'): Promise<Row[]> {
      let query = rowsOf(projectId, parentId);
      for (const column of sortColumns) query = query.orderBy(column, order);
      return query.orderBy('id').execute() as Promise<Row[]>;
    },
    find(projectId: number, parentId: number, id: number): Promise<Row | undefined> {
      return rowsOf(projectId, parentId).where('id', '=', id).executeTakeFirst() as Promise<Row | undefined>;
    },
    insert(row: Insertable<Database[T]>): Promise<number> {
      return insertRow(db, dialect, table, row);
    },
    async update(
      projectId: number,
      parentId: number,
      id: number,
      changes: Partial<Omit<Row, 'id' | 'project_id' | P>>,
    ): Promise<void> {
      if (!hasColumnsToSet(changes)) return;
      await scoped
        .updateTable(name)
        .set(changes)
        .where('project_id', '=', projectId)
        .where(parent, '=', parentId)
        .where('id', '=', id)
        .execute();
    },
    async delete(projectId: number, parentId: number, id: number): Promise<void> {
      await scoped
        .deleteFrom(name)
        .where('project_id', '=', projectId)
        .where(parent, '=', parentId)
        .where('id', '=', id)
        .execute();
    },
  };
}

/** One project table's queries by id: what a module may be given of another module's rows. */
export type ProjectRowsById<T extends ProjectTable> = Omit<
  ReturnType<typeof projectRows<T>>,
  'list' | 'listWhere' | 'findWhere'
>;
