import type { LiveHub } from '../http/live-hub.ts';
import type { ClusterBus } from './cluster-bus.ts';

/**
 * The live hub of one node in a cluster: what its tasks publish also goes to the other nodes, and
 * what their tasks publish reaches the websocket clients connected here.
 */
export function createClusteredHub(hub: LiveHub, bus: ClusterBus): LiveHub {
  bus.onMessage((message) => {
    if (message.kind !== 'update' && message.kind !== 'lines') return;
    const audience = { memberIds: new Set(message.member_ids) };
    if (message.kind === 'update') hub.publishUpdate(audience, message.message, message.finished);
    else hub.publishLines(audience, message.task, message.lines);
  });
  return {
    ...hub,
    publishUpdate(audience, message, finished) {
      hub.publishUpdate(audience, message, finished);
      bus.publish({ kind: 'update', member_ids: [...audience.memberIds], message, finished });
    },
    publishLines(audience, task, lines) {
      hub.publishLines(audience, task, lines);
      if (lines.length > 0) bus.publish({ kind: 'lines', member_ids: [...audience.memberIds], task: { id: task.id, project_id: task.project_id }, lines });
    },
    get size() {
      return hub.size;
    },
  };
}
