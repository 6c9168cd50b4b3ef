import type { Db } from '../db/database.ts';
import { tryUpdate } from '../db/conditional-write.ts';

export function createNodesRepository(db: Db) {
  return {
    /** The store's cluster identity, made once by its migration. */
    async getClusterId(): Promise<string> {
      return (await db.selectFrom('cluster').select('id').executeTakeFirstOrThrow()).id;
    },

    /** Records that the node is alive, registering it on its first beat. */
    async beat(nodeId: string, now: string): Promise<void> {
      const updated = await tryUpdate(db.updateTable('server_node').set({ heartbeat: now }).where('id', '=', nodeId));
      if (!updated) await db.insertInto('server_node').values({ id: nodeId, started: now, heartbeat: now }).execute();
    },

    /** Nodes that beat at or after `since`. */
    async listAliveIds(since: string): Promise<Set<string>> {
      const rows = await db.selectFrom('server_node').select('id').where('heartbeat', '>=', since).execute();
      return new Set(rows.map((row) => row.id));
    },

    /** Forgets nodes silent since before `before`, and a node that shut down. */
    async removeSilent(before: string): Promise<void> {
      await db.deleteFrom('server_node').where('heartbeat', '<', before).execute();
    },
    async remove(nodeId: string): Promise<void> {
      await db.deleteFrom('server_node').where('id', '=', nodeId).execute();
    },
  };
}

export type NodesRepository = ReturnType<typeof createNodesRepository>;
