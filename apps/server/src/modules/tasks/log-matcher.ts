import { Worker } from 'node:worker_threads';
import { badRequest, tooManyRequests } from '../../errors.ts';

/**
 * Runs a user's search over log lines off the event loop. A regular expression from a user can
 * backtrack for ages on one crafted line, and JavaScript cannot interrupt a running match: the match
 * runs in a worker thread that is terminated when the search's time budget runs out, so the server
 * keeps answering and the search ends with a 400.
 */

interface LogPattern {
  source: string;
  flags: string;
}

/** One search: feed it chunks of lines, each answered with the indices of the matching ones; always close it. */
interface LogMatchSession {
  match(lines: string[]): Promise<Int32Array>;
  close(): void;
}

export interface LogMatcher {
  /**
   * Checks the pattern and starts a session; throws a 400 for a pattern that does not compile. A
   * literal pattern (escaped text) matches in linear time and has no time budget.
   */
  open(pattern: LogPattern, literal: boolean, userId: number): LogMatchSession;
}

// Kept as source text: a worker started from a string needs no file next to the built server.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const pattern = new RegExp(workerData.source, workerData.flags);
parentPort.on('message', (lines) => {
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    pattern.lastIndex = 0;
    if (pattern.test(lines[i])) found.push(i);
  }
  const indices = Int32Array.from(found);
  parentPort.postMessage(indices, [indices.buffer]);
});
`;

interface LogSearchLimits {
  /** Matching time one search may use. */
  budgetMs: number;
  /** Searches running at once on one server, and of them at once for one user. */
  maxConcurrent: number;
  maxPerUser: number;
}

// A log dialog may hold two searches at once (the search bar and the first-error check); two dialogs, four.
export const LOG_SEARCH_LIMITS: LogSearchLimits = { budgetMs: 3000, maxConcurrent: 8, maxPerUser: 4 };

const LOG_SEARCH_TOO_SLOW = 'The search took too long; use a simpler regular expression';

/** Escapes text so that a regular expression matches it literally. */
export function literalPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const startMatchWorker = (pattern: LogPattern) =>
  new Worker(WORKER_SOURCE, { eval: true, workerData: { source: pattern.source, flags: pattern.flags } });

/**
 * Slots for searches running at once: one user's slow searches take at most `maxPerUser` of them,
 * so others can still search. `take` throws a 429 when none is free and returns the release.
 */
function createSearchSlots({ maxConcurrent, maxPerUser }: LogSearchLimits) {
  let running = 0;
  const runningByUser = new Map<number, number>();
  return {
    take(userId: number): () => void {
      const mine = runningByUser.get(userId) ?? 0;
      if (mine >= maxPerUser)
        throw tooManyRequests('You are running too many log searches at once; try again shortly', 1);
      if (running >= maxConcurrent) throw tooManyRequests('Too many log searches at once; try again shortly', 1);
      running++;
      runningByUser.set(userId, mine + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        running--;
        const left = (runningByUser.get(userId) ?? 1) - 1;
        if (left === 0) runningByUser.delete(userId);
        else runningByUser.set(userId, left);
      };
    },
  };
}

/** `startWorker` exists for tests that need the worker's start to fail. */
export function createLogMatcher(limits: LogSearchLimits, startWorker = startMatchWorker): LogMatcher {
  const slots = createSearchSlots(limits);
  return {
    open(pattern, literal, userId) {
      try {
        new RegExp(pattern.source, pattern.flags);
      } catch (error) {
        throw badRequest(`Invalid regular expression: ${(error as Error).message}`);
      }
      const release = slots.take(userId);
      let worker: Worker;
      try {
        worker = startWorker(pattern);
      } catch (error) {
        release();
        throw error;
      }
      worker.unref();
      // Only the time spent matching counts: reading a long log from the store is not the pattern's fault.
      let remainingMs = literal ? Number.POSITIVE_INFINITY : limits.budgetMs;
      let closed = false;
      return {
        match(lines) {
          const started = Date.now();
          return new Promise<Int32Array>((resolve, reject) => {
            const timer =
              remainingMs === Number.POSITIVE_INFINITY
                ? undefined
                : setTimeout(() => {
                    cleanup();
                    void worker.terminate();
                    reject(badRequest(LOG_SEARCH_TOO_SLOW));
                  }, remainingMs);
            const onMessage = (indices: Int32Array) => {
              cleanup();
              remainingMs = Math.max(0, remainingMs - (Date.now() - started));
              resolve(indices);
            };
            // A match that gives up (its backtracking stack overflows on a huge line) ends the worker:
            // the search fails on the user's pattern, a 400, and never waits on a worker that is gone.
            const onError = (error: Error) => {
              cleanup();
              reject(badRequest(`The search failed: ${error.message}; use a simpler regular expression`));
            };
            const onExit = () => onError(new Error('the search stopped'));
            const cleanup = () => {
              clearTimeout(timer);
              worker.off('message', onMessage);
              worker.off('error', onError);
              worker.off('exit', onExit);
            };
            worker.on('message', onMessage);
            worker.on('error', onError);
            worker.on('exit', onExit);
            worker.postMessage(lines);
          });
        },
        close() {
          if (closed) return;
          closed = true;
          release();
          void worker.terminate();
        },
      };
    },
  };
}
