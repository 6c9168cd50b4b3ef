import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from './database.ts';

/**
 * Dialect differences of DDL live here, or in a migration that branches on `dialect` where a store
 * needs statements of its own (as 0017 does).
 */
export function createSchemaHelpers(dialect: Dialect) {
  return {
    dialect,
    /** An auto-incrementing integer primary key named id. */
    withId<T extends string>(table: CreateTableBuilder<T, never>) {
      if (dialect === 'postgres') return table.addColumn('id', 'serial', (c) => c.primaryKey());
      return table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
    },
    /** Long text: `text` everywhere (MySQL `longtext` so big inventories and logs fit). */
    longText: dialect === 'mysql' ? sql`longtext` : sql`text`,
    /** Table options (MySQL needs InnoDB + utf8mb4 for foreign keys and full Unicode). */
    finish<T extends string>(table: CreateTableBuilder<T, never>) {
      return dialect === 'mysql'
        ? table.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`)
        : table;
    },
  };
}

type SchemaHelpers = ReturnType<typeof createSchemaHelpers>;

export interface GantryMigration {
  name: string;
  up(db: Kysely<unknown>, helpers: SchemaHelpers): Promise<void>;
}
