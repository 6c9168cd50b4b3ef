import type { LiveHub } from '../live/live-hub.ts';
import type { CredentialKey } from '../modules/auth/session.ts';
import type { ClusterBus } from './cluster-bus.ts';

function isCredentialKey(value: string): value is CredentialKey {
  return value.startsWith('session:') || value.startsWith('token:');
}

/**
 * The live hub of one node in a cluster: what its tasks publish also goes to the other nodes, and
 * what their tasks publish reaches the websocket clients connected here.
 */
export function createClusteredHub(hub: LiveHub, bus: ClusterBus): LiveHub {
  bus.onMessage((message) => {
    if (message.kind === 'credentials') {
      if (message.key !== undefined && isCredentialKey(message.key)) hub.endCredentials({ key: message.key });
      else if (message.user_id !== undefined) {
        hub.endCredentials({
          userId: message.user_id,
          ...(message.except !== undefined && isCredentialKey(message.except) ? { except: message.except } : {}),
        });
      }
      return;
    }
    if (message.kind === 'admin') {
      hub.adminChanged(message.user_id, message.admin);
      return;
    }
    if (message.kind === 'members') {
      hub.membershipChanged(message.project_id, message.removed_user_id);
      return;
    }
    if (message.kind !== 'update' && message.kind !== 'lines') return;
    const audience = { memberIds: new Set(message.member_ids) };
    if (message.kind === 'update') hub.publishUpdate(audience, message.message, message.finished);
    else hub.publishLines(audience, message.task, message.lines);
  });
  return {
    ...hub,
    endCredentials(ended) {
      hub.endCredentials(ended);
      bus.publish(
        'key' in ended
          ? { kind: 'credentials', key: ended.key }
          : { kind: 'credentials', user_id: ended.userId, ...(ended.except ? { except: ended.except } : {}) },
      );
    },
    adminChanged(userId, admin) {
      hub.adminChanged(userId, admin);
      bus.publish({ kind: 'admin', user_id: userId, admin });
    },
    membershipChanged(projectId, removedUserId) {
      hub.membershipChanged(projectId, removedUserId);
      bus.publish({
        kind: 'members',
        project_id: projectId,
        ...(removedUserId !== undefined ? { removed_user_id: removedUserId } : {}),
      });
    },
    publishUpdate(audience, message, finished) {
      hub.publishUpdate(audience, message, finished);
      bus.publish({ kind: 'update', member_ids: [...audience.memberIds], message, finished });
    },
    publishLines(audience, task, lines) {
      hub.publishLines(audience, task, lines);
      if (lines.length > 0)
        bus.publish({
          kind: 'lines',
          member_ids: [...audience.memberIds],
          task: { id: task.id, project_id: task.project_id },
          lines,
        });
    },
    get size() {
      return hub.size;
    },
  };
}
