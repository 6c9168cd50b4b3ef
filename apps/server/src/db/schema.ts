import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from './database.ts';

/**
 * A column as a migration declares it. Columns are NOT NULL unless `nullable`; `createTable` and
 * `addColumns` write them in each dialect's terms.
 */
interface Column {
  type: 'serial' | 'integer' | 'text' | 'long text' | `varchar(${number})`;
  notNull: boolean;
  defaultTo?: string | number;
  unique?: true;
  primaryKey?: true;
  references?: { table: string; onDelete?: 'cascade' | 'set null' };
}

export function varchar(length: number, defaultTo?: string): Column {
  return { type: `varchar(${length})`, notNull: true, ...(defaultTo === undefined ? {} : { defaultTo }) };
}

export function integer(defaultTo?: number): Column {
  return { type: 'integer', notNull: true, ...(defaultTo === undefined ? {} : { defaultTo }) };
}

export const text: Column = { type: 'text', notNull: true };

/** Text that may be large (inventories, logs, definitions): `longtext` on MySQL, where `text` stops at 64 KiB. */
export const longText: Column = { type: 'long text', notNull: true };

/** An ISO 8601 time. */
export const time: Column = varchar(40);

/** The id of a row of `table`; `onDelete` says what deleting that row does to this one. */
export function references(table: string, onDelete?: 'cascade' | 'set null'): Column {
  return { type: 'integer', notNull: true, references: { table, ...(onDelete ? { onDelete } : {}) } };
}

export function nullable(column: Column): Column {
  return { ...column, notNull: false };
}

export function unique(column: Column): Column {
  return { ...column, unique: true };
}

export function primaryKey(column: Column): Column {
  return { ...column, notNull: false, primaryKey: true };
}

/** Indexes or unique constraints by name: the columns each covers, in order. */
type Keys = Record<string, string[]>;

/** The auto-incrementing integer primary key `id` every table has unless it declares its own primary key. */
const serialId: Column = { type: 'serial', notNull: false, primaryKey: true };

function defineColumn(column: Column) {
  return (c: ColumnDefinitionBuilder) => {
    let defined = column.notNull ? c.notNull() : c;
    if (column.defaultTo !== undefined) defined = defined.defaultTo(column.defaultTo);
    if (column.unique) defined = defined.unique();
    if (column.primaryKey) defined = defined.primaryKey();
    if (column.references) {
      defined = defined.references(`${column.references.table}.id`);
      if (column.references.onDelete) defined = defined.onDelete(column.references.onDelete);
    }
    return defined;
  };
}

/**
 * How migrations change the schema: tables, columns and keys declared once, written in each dialect's
 * terms here. A migration that needs statements of its own branches on `dialect` (as 0017 does).
 */
export function createSchemaHelpers(db: Kysely<unknown>, dialect: Dialect) {
  /** A column in the dialect's terms: its type, and what its definition adds for that type. */
  function dialectColumn(column: Column) {
    const define = defineColumn(column);
    switch (column.type) {
      case 'serial':
        if (dialect === 'postgres') return { type: 'serial', define } as const;
        return { type: 'integer', define: (c: ColumnDefinitionBuilder) => define(c).autoIncrement() } as const;
      case 'long text':
        return { type: dialect === 'mysql' ? sql`longtext` : sql`text`, define };
      default:
        return { type: column.type, define };
    }
  }

  async function createIndexes(table: string, indexes: Keys, unique: boolean) {
    for (const [name, columns] of Object.entries(indexes)) {
      const index = db.schema.createIndex(name).on(table).columns(columns);
      await (unique ? index.unique() : index).execute();
    }
  }

  return {
    dialect,

    /**
     * Creates a table with its columns in this order. Like every table, it starts with the auto-incrementing
     * primary key `id`, unless one of its own columns is its primary key.
     */
    async createTable(name: string, columns: Record<string, Column>, { unique = {} }: { unique?: Keys } = {}) {
      const hasKey = Object.values(columns).some((column) => column.primaryKey);
      let table: CreateTableBuilder<string, string> = db.schema.createTable(name);
      for (const [column, declared] of Object.entries(hasKey ? columns : { id: serialId, ...columns })) {
        const { type, define } = dialectColumn(declared);
        table = table.addColumn(column, type, define);
      }
      for (const [constraint, keyColumns] of Object.entries(unique))
        table = table.addUniqueConstraint(constraint, keyColumns);
      // MySQL needs InnoDB for foreign keys and utf8mb4 for all of Unicode.
      if (dialect === 'mysql') table = table.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`);
      await table.execute();
    },

    /** Adds columns to a table, one statement each (SQLite adds one column per statement). */
    async addColumns(table: string, columns: Record<string, Column>) {
      for (const [column, declared] of Object.entries(columns)) {
        const { type, define } = dialectColumn(declared);
        await db.schema.alterTable(table).addColumn(column, type, define).execute();
      }
    },

    /** Creates indexes on a table, in this order. */
    createIndexes: (table: string, indexes: Keys) => createIndexes(table, indexes, false),

    /** Creates unique indexes on a table, in this order. */
    createUniqueIndexes: (table: string, indexes: Keys) => createIndexes(table, indexes, true),

    /**
     * PostgreSQL: deleting tasks deletes their rows of `table`, keyed by task_id, in one statement per
     * deletion, where a foreign key would check every row stored.
     */
    async followTaskDeletion(table: string) {
      const trigger = `${table}_follow_task`;
      // PostgreSQL keeps a function's body as written: this is the text 0017 and 0020 first wrote.
      const createFunction = `
        create function ${trigger}() returns trigger language plpgsql as $$
        begin
          delete from ${table} where task_id in (select id from deleted_tasks);
          return null;
        end $$`;
      const createTrigger = `
        create trigger ${trigger} after delete on task
        referencing old table as deleted_tasks for each statement
        execute function ${trigger}()`;
      await sql.raw(createFunction).execute(db);
      await sql.raw(createTrigger).execute(db);
    },
  };
}

export type SchemaHelpers = ReturnType<typeof createSchemaHelpers>;

export interface GantryMigration {
  name: string;
  up(db: Kysely<unknown>, helpers: SchemaHelpers): Promise<void>;
}

/** A migration: its name, under which stores record it as applied, and what it changes. */
export function defineMigration(name: string, up: GantryMigration['up']): GantryMigration {
  return { name, up };
}
