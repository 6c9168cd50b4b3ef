import type { TaskLogBatchMessage, TaskLogMessage } from '@gantry/contract';
import type { WebSocket } from 'ws';
import type { CredentialKey, EndedCredentials } from '../modules/auth/session.ts';
import type { LiveMembership } from './live-membership.ts';

export interface LogLine {
  seq: number;
  time: string;
  output: string;
}

/**
 * Who may see a project's live events: its members, and every administrator. The member ids are
 * what the publisher knew when the task started; the hub checks each event against the current
 * membership, so a member removed mid-task stops receiving at once.
 */
export interface Audience {
  memberIds: ReadonlySet<number>;
}

/** Who opened a websocket, and with which session or API token. */
export interface LiveCaller {
  userId: number;
  admin: boolean;
  key: CredentialKey;
}

interface TaskStream {
  projectId: number;
  /** The publisher's members of the project, for the checks made while catching up. */
  known: ReadonlySet<number>;
  /** Sequence number of the next line this client should get. */
  next: number;
  /** The client fell behind: lines come from the store instead of the live feed until it caught up. */
  lagging: boolean;
  /** Status updates held back while lagging, so they never overtake the lines before them. */
  held: string[];
  /** The task ended: the stream is dropped once its last lines and update went out. */
  finished: boolean;
}

interface Connection {
  socket: WebSocket;
  userId: number;
  /** Refreshed when the credential is checked again: a demoted administrator stops seeing every project. */
  admin: boolean;
  /** The socket lives as long as this session or token. */
  key: CredentialKey;
  /** Receives log lines as one `logs` message per batch instead of one `log` message per line. */
  batch: boolean;
  streams: Map<number, TaskStream>;
  catchingUp: boolean;
}

export interface LiveHubOptions {
  /** Reads stored lines of a task from a sequence number on, for clients that fell behind. */
  readLines(taskId: number, fromSeq: number, limit: number): Promise<LogLine[]>;
  /** A client with more unsent data than this stops getting live lines and catches up from the store. */
  lagBytes?: number;
  membership: LiveMembership;
}

/** Close code and reason of a socket whose session or token ended (4000-4999: for applications). */
const CREDENTIAL_ENDED = { code: 4001, reason: 'Session ended' } as const;

const CATCH_UP_CHUNK = 2000;
const RESUME_BYTES = 1024 * 1024;

/**
 * Fan-out of task events to the websocket connections allowed to see them. A slow client never
 * holds memory for lines it cannot take yet: it is switched to reading them from the store, in
 * order, and returns to the live feed once it has caught up, so every client gets every line.
 */
export function createLiveHub(options: LiveHubOptions) {
  const connections = new Set<Connection>();
  const lagBytes = options.lagBytes ?? 8 * 1024 * 1024;

  const allowed = (connection: Connection, projectId: number, known: ReadonlySet<number>) =>
    connection.admin || options.membership.isMember(projectId, connection.userId, known);

  /** The connections that may hear of a task of the project; the others stop following the task. */
  function* listeners(projectId: number, memberIds: ReadonlySet<number>, taskId: number): Generator<Connection> {
    for (const connection of connections) {
      if (allowed(connection, projectId, memberIds)) yield connection;
      else connection.streams.delete(taskId);
    }
  }

  function close(connection: Connection): void {
    connections.delete(connection);
    connection.socket.close(CREDENTIAL_ENDED.code, CREDENTIAL_ENDED.reason);
  }

  function frames(connection: Connection, taskId: number, projectId: number, lines: LogLine[]): string[] {
    if (connection.batch) {
      const message: TaskLogBatchMessage = { type: 'logs', task_id: taskId, project_id: projectId, lines };
      return [JSON.stringify(message)];
    }
    return lines.map((l) => {
      const message: TaskLogMessage = {
        type: 'log',
        task_id: taskId,
        project_id: projectId,
        time: l.time,
        output: l.output,
      };
      return JSON.stringify(message);
    });
  }

  function isOpen(connection: Connection): boolean {
    return connection.socket.readyState === connection.socket.OPEN;
  }

  async function catchUp(connection: Connection): Promise<void> {
    if (connection.catchingUp) return;
    connection.catchingUp = true;
    try {
      for (;;) {
        if (!isOpen(connection)) return;
        const entry = [...connection.streams.entries()].find(([, s]) => s.lagging);
        if (!entry) return;
        if (connection.socket.bufferedAmount > RESUME_BYTES) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          continue;
        }
        const [taskId, stream] = entry;
        const lines = await options.readLines(taskId, stream.next, CATCH_UP_CHUNK);
        // Checked after the read: the member may have been removed while it ran.
        if (!allowed(connection, stream.projectId, stream.known)) {
          connection.streams.delete(taskId);
          continue;
        }
        for (const frame of frames(connection, taskId, stream.projectId, lines)) connection.socket.send(frame);
        if (lines.length > 0) stream.next = (lines.at(-1)?.seq ?? stream.next) + 1;
        if (lines.length < CATCH_UP_CHUNK) {
          stream.lagging = false;
          for (const frame of stream.held.splice(0)) connection.socket.send(frame);
          if (stream.finished) connection.streams.delete(taskId);
        }
      }
    } finally {
      connection.catchingUp = false;
    }
  }

  return {
    add(socket: WebSocket, caller: LiveCaller, batch: boolean): void {
      const connection: Connection = {
        socket,
        userId: caller.userId,
        admin: caller.admin,
        key: caller.key,
        batch,
        streams: new Map(),
        catchingUp: false,
      };
      connections.add(connection);
      socket.on('close', () => connections.delete(connection));
      // Clients have nothing to say; anything they send is read and dropped.
      socket.on('message', () => undefined);
    },

    /**
     * Sends a status update, after any lines of the same task the client is still catching up on.
     * The final update of a watched task first checks the store for lines the live feed never
     * brought (a batch lost between cluster nodes), so it never announces an end before them.
     */
    publishUpdate(
      audience: Audience,
      message: { task_id: number; project_id: number; status: string },
      finished: boolean,
    ): void {
      const frame = JSON.stringify(message);
      for (const connection of listeners(message.project_id, audience.memberIds, message.task_id)) {
        const stream = connection.streams.get(message.task_id);
        if (!stream) {
          connection.socket.send(frame);
          continue;
        }
        if (finished) {
          stream.finished = true;
          stream.lagging = true;
        }
        if (stream.lagging) {
          stream.held.push(frame);
          void catchUp(connection);
        } else connection.socket.send(frame);
      }
    },

    /** Sends stored lines of a task to every allowed connection, in sequence order. */
    publishLines(audience: Audience, task: { id: number; project_id: number }, lines: LogLine[]): void {
      if (lines.length === 0) return;
      for (const connection of listeners(task.project_id, audience.memberIds, task.id)) {
        let stream = connection.streams.get(task.id);
        if (!stream) {
          // A client that joins mid-task reads what came before from the output API.
          stream = {
            projectId: task.project_id,
            known: audience.memberIds,
            next: lines[0]?.seq ?? 0,
            lagging: false,
            held: [],
            finished: false,
          };
          connection.streams.set(task.id, stream);
        }
        const fresh = lines.filter((l) => l.seq >= (stream?.next ?? 0));
        if (fresh.length === 0) continue;
        if (stream.lagging || fresh[0]?.seq !== stream.next || connection.socket.bufferedAmount > lagBytes) {
          stream.lagging = true;
          void catchUp(connection);
          continue;
        }
        for (const frame of frames(connection, task.id, task.project_id, fresh)) connection.socket.send(frame);
        stream.next = (fresh.at(-1)?.seq ?? stream.next) + 1;
      }
    },

    /** Closes the sockets opened with credentials that just ended (sign-out, revoked token, password change, user deleted). */
    endCredentials(ended: EndedCredentials): void {
      for (const connection of connections) {
        const matches =
          'key' in ended
            ? connection.key === ended.key
            : connection.userId === ended.userId && connection.key !== ended.except;
        if (matches) close(connection);
      }
    },

    /**
     * Checks every socket's credential again (it may have expired, or ended on another node) and
     * refreshes the administrator flag; sockets whose credential is gone are closed.
     */
    async revalidate(check: (key: CredentialKey) => Promise<{ admin: boolean } | undefined>): Promise<void> {
      for (const connection of [...connections]) {
        const current = await check(connection.key);
        if (!current) close(connection);
        else connection.admin = current.admin;
      }
    },

    /** A user became an administrator or stopped being one: their sockets see every project, or only their own, at once. */
    adminChanged(userId: number, admin: boolean): void {
      for (const connection of connections) if (connection.userId === userId) connection.admin = admin;
    },

    /** A project's team changed; a removed member stops receiving its events at once. */
    membershipChanged(projectId: number, removedUserId?: number): void {
      options.membership.changed(projectId, removedUserId);
    },

    get size(): number {
      return connections.size;
    },
    closeAll(): void {
      for (const connection of connections) connection.socket.close(1001, 'Server shutting down');
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
