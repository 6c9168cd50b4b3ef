import type { TaskLogBatchMessage, TaskLogMessage } from '@gantry/contract';
import type { WebSocket } from 'ws';

export interface LogLine {
  seq: number;
  time: string;
  output: string;
}

/** Who may see a project's live events: its members, and every administrator. */
export interface Audience {
  memberIds: ReadonlySet<number>;
}

interface TaskStream {
  projectId: number;
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
  admin: boolean;
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
}

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

  const allowed = (connection: Connection, audience: Audience) => connection.admin || audience.memberIds.has(connection.userId);

  function frames(connection: Connection, taskId: number, projectId: number, lines: LogLine[]): string[] {
    if (connection.batch) {
      const message: TaskLogBatchMessage = { type: 'logs', task_id: taskId, project_id: projectId, lines };
      return [JSON.stringify(message)];
    }
    return lines.map((l) => {
      const message: TaskLogMessage = { type: 'log', task_id: taskId, project_id: projectId, time: l.time, output: l.output };
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
    add(socket: WebSocket, user: { id: number; admin: boolean }, batch: boolean): void {
      const connection: Connection = { socket, userId: user.id, admin: user.admin, batch, streams: new Map(), catchingUp: false };
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
    publishUpdate(audience: Audience, message: { task_id: number; status: string }, finished: boolean): void {
      const frame = JSON.stringify(message);
      for (const connection of connections) {
        if (!allowed(connection, audience)) continue;
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
      for (const connection of connections) {
        if (!allowed(connection, audience) || lines.length === 0) continue;
        let stream = connection.streams.get(task.id);
        if (!stream) {
          // A client that joins mid-task reads what came before from the output API.
          stream = { projectId: task.project_id, next: lines[0]?.seq ?? 0, lagging: false, held: [], finished: false };
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

    get size(): number {
      return connections.size;
    },
    closeAll(): void {
      for (const connection of connections) connection.socket.close(1001, 'Server shutting down');
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
