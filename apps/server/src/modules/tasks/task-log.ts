import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Audience, LiveHub, LogLine } from '../../live/live-hub.ts';
import type { TaskLogSpool } from './task-log-spool.ts';
import type { TaskOutputRepository } from './task-output.repository.ts';

export interface TaskLogOptions {
  output: TaskOutputRepository;
  hub: LiveHub;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Where lines read but not stored yet wait, so a killed process loses none of them. */
  spool: TaskLogSpool;
  /** Lines wait at most this long before they are stored and sent. */
  flushIntervalMs?: number;
  /** A batch this large is stored and sent at once. */
  maxBatch?: number;
  /** How long a batch the store refuses is tried again before its lines are given up; 30 s unless given. */
  storeRetryMs?: number;
  /** Told how many lines each stored batch held. */
  onStored?(count: number): void;
}

/** Lines stored in one transaction at most, when the store falls behind the output. */
const MAX_STORED_BATCH = 50_000;

/**
 * The log pipeline of one task: every line gets the next sequence number as it arrives, lines are
 * stored and broadcast in batches, one batch after the other, so readers always see them in order.
 * Every batch goes to the task's spool file first (at most one flush interval after it was read), and
 * the file is emptied whenever the store has caught up: what the store lags behind survives a kill.
 */
export function createTaskLogFactory(options: TaskLogOptions) {
  const flushIntervalMs = options.flushIntervalMs ?? 25;
  const maxBatch = options.maxBatch ?? 2000;
  const storeRetryMs = options.storeRetryMs ?? 30_000;

  return function openTaskLog(task: { id: number; project_id: number }, firstSeq: number, audience: Audience) {
    let nextSeq = firstSeq;
    let buffer: LogLine[] = [];
    // Lines read since the last write to the spool.
    let unspooled: LogLine[] = [];
    const spool = options.spool.open(task.id);
    let timer: NodeJS.Timeout | undefined;
    // Formatting a timestamp costs more than the rest of a line's handling; a flood of output
    // shares each millisecond's text.
    let stampedAt = Number.NaN;
    let stamp = '';
    const timestamp = () => {
      const now = options.clock.now();
      if (now.getTime() !== stampedAt) {
        stampedAt = now.getTime();
        stamp = toTimestamp(now);
      }
      return stamp;
    };

    async function persist(lines: LogLine[], lastSeq: number): Promise<void> {
      const rows = lines.map((l) => ({ task_id: task.id, seq: l.seq, time: l.time, output: l.output }));
      const givingUpAt = Date.now() + storeRetryMs;
      for (let pause = 50; ; pause = Math.min(pause * 2, 5_000)) {
        try {
          await options.output.storeNumbered(rows, task.id, lastSeq);
          options.onStored?.(rows.length);
          break;
        } catch (error) {
          // A store that refuses a moment (a deadlock, a failover) gets the batch again; meanwhile the
          // lines wait in the spool and the task's later lines gather for the next batch.
          if (Date.now() + pause > givingUpAt) {
            options.logger.error({ err: error, taskId: task.id }, 'could not store task output');
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, pause));
        }
      }
      options.hub.publishLines(audience, task, lines);
    }

    // One batch is stored at a time; lines arriving meanwhile go together into the next, so a store
    // slower than the task's output gets fewer, larger transactions instead of a growing queue of small ones.
    // The drain lets go in the same step as it finds the buffer empty: a flush asked a moment later
    // (the task's last line) starts a new one instead of getting the finished one's promise.
    let draining: Promise<void> | undefined;
    async function drain(): Promise<void> {
      try {
        while (buffer.length > 0) {
          const lines = buffer.length > MAX_STORED_BATCH ? buffer.splice(0, MAX_STORED_BATCH) : buffer;
          if (lines === buffer) buffer = [];
          const last = lines[lines.length - 1];
          if (last) await persist(lines, last.seq + 1);
          if (buffer.length === 0) {
            // Every line read so far is stored (or given up on): the spool can start afresh.
            unspooled = [];
            spool.clear();
          }
        }
      } finally {
        draining = undefined;
      }
    }

    function flush(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (unspooled.length > 0) {
        spool.append(unspooled);
        unspooled = [];
      }
      // Started only with lines to store, so the drain awaits before it ends and lets go after this assignment.
      if (!draining && buffer.length > 0) draining = drain();
      return draining ?? Promise.resolve();
    }

    return {
      write(output: string): void {
        const line = { seq: nextSeq++, time: timestamp(), output };
        buffer.push(line);
        unspooled.push(line);
        // While a batch is being stored, lines gather for the next: a full batch goes to the spool at once,
        // anything less with the timer, never a write of the spool per line.
        if (draining ? unspooled.length >= maxBatch : buffer.length >= maxBatch) void flush();
        else timer ??= setTimeout(() => void flush(), flushIntervalMs);
      },
      /** Stores and sends everything written so far. */
      flush,
      /** Ends the log: everything written is flushed first, so nothing is left to spool. */
      async close(): Promise<void> {
        await flush();
        spool.remove();
      },
    };
  };
}

export type OpenTaskLog = ReturnType<typeof createTaskLogFactory>;
