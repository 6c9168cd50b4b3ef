import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { defineMigration, nullable, primaryKey, time, varchar } from '../schema.ts';

export const clusterNodes = defineMigration('0009-cluster-nodes', async (db, h) => {
  // The Gantry server processes sharing this store, each with its latest heartbeat.
  await h.createTable('server_node', { id: primaryKey(varchar(64)), started: time, heartbeat: time });
  // The identity of this store's cluster: its nodes talk on a Redis channel of that name, so
  // installations sharing one Redis never hear each other.
  await h.createTable('cluster', { id: primaryKey(varchar(64)) });
  await (db as Kysely<{ cluster: { id: string } }>).insertInto('cluster').values({ id: randomUUID() }).execute();
  // Which server process runs a task in-process, so only that one is asked to stop it, and its
  // tasks are closed when it is gone.
  await h.addColumns('task', { node_id: nullable(varchar(64)) });
});
