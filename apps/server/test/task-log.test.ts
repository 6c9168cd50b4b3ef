import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Audience, LiveHub } from '../src/live/live-hub.ts';
import { createTaskLogFactory } from '../src/modules/tasks/task-log.ts';
import type { TaskOutputRepository } from '../src/modules/tasks/task-output.repository.ts';

/** A log whose store answers each batch when the test lets it. */
function createLog() {
  const stored: string[] = [];
  const answers: (() => void)[] = [];
  const output = {
    storeNumbered: (rows: { output: string }[]) =>
      new Promise<void>((resolve) =>
        answers.push(() => {
          stored.push(...rows.map((row) => row.output));
          resolve();
        }),
      ),
  } as unknown as TaskOutputRepository;
  const hub = { publishLines: () => undefined } as unknown as LiveHub;
  const open = createTaskLogFactory({
    output,
    hub,
    clock: { now: () => new Date() },
    logger: pino({ level: 'silent' }),
    flushIntervalMs: 60_000,
  });
  const log = open({ id: 1, project_id: 1 }, 0, {} as Audience);
  /** From now on the store answers every batch at once. */
  const answerAll = () => {
    for (const answer of answers.splice(0)) answer();
    answers.push = (...added) => {
      for (const answer of added) answer();
      return 0;
    };
  };
  return { log, stored, answers, answerAll };
}

describe('task log', () => {
  it('a flush asked at any moment around the end of a stored batch stores the lines written before it', async () => {
    for (let ticks = 0; ticks < 12; ticks++) {
      const { log, stored, answers, answerAll } = createLog();
      log.write('first');
      const first = log.flush();
      expect(answers).toHaveLength(1);
      answers.shift()?.();
      // The last line and its flush come some microtasks after the store answered the batch before.
      for (let i = 0; i < ticks; i++) await Promise.resolve();
      log.write('last');
      const last = log.flush();
      answerAll();
      await Promise.all([first, last]);
      expect(stored, `after ${ticks} microtasks`).toEqual(['first', 'last']);
    }
  });
});
