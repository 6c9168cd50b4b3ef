import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { GantryMigration } from '../schema.ts';

const time = 'varchar(40)';

export const clusterNodes: GantryMigration = {
  name: '0009-cluster-nodes',
  async up(db, h) {
    // The Gantry server processes sharing this store, each with its latest heartbeat.
    await h
      .finish(
        db.schema
          .createTable('server_node')
          .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('started', time, (c) => c.notNull())
          .addColumn('heartbeat', time, (c) => c.notNull()),
      )
      .execute();
    // The identity of this store's cluster: its nodes talk on a Redis channel of that name, so
    // installations sharing one Redis never hear each other.
    await h.finish(db.schema.createTable('cluster').addColumn('id', 'varchar(64)', (c) => c.primaryKey())).execute();
    await (db as Kysely<{ cluster: { id: string } }>).insertInto('cluster').values({ id: randomUUID() }).execute();
    // Which server process runs a task in-process, so only that one is asked to stop it, and its
    // tasks are closed when it is gone.
    await db.schema.alterTable('task').addColumn('node_id', 'varchar(64)').execute();
  },
};
