import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { Audience, LiveHub } from '../src/live/live-hub.ts';
import { createTaskLogFactory } from '../src/modules/tasks/task-log.ts';
import { createTaskLogSpool, spoolDirOf } from '../src/modules/tasks/task-log-spool.ts';
import type { TaskOutputRepository } from '../src/modules/tasks/task-output.repository.ts';

const spoolDirs: string[] = [];
afterAll(() => spoolDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function createSpool() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-spool-'));
  spoolDirs.push(dir);
  return { dir, spool: createTaskLogSpool(dir, pino({ level: 'silent' })) };
}

/** A log whose store answers each batch when the test lets it. */
function createLog(maxBatch?: number) {
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
  const { dir, spool } = createSpool();
  const open = createTaskLogFactory({
    ...(maxBatch ? { maxBatch } : {}),
    spool,
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
  return { log, stored, answers, answerAll, spool, dir };
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

  it('keeps the lines the store has not taken yet in the spool, empties it once the store caught up, removes it at the end', async () => {
    const { log, answers, answerAll, spool } = createLog();
    const spooled = () => spool.read(1).map((line) => `${line.seq} ${line.output}`);
    log.write('one');
    log.write('two');
    const first = log.flush();
    expect(spooled()).toEqual(['0 one', '1 two']);
    // Read while the store works on the first batch: spooled at the next flush, stored after it.
    log.write('three');
    const second = log.flush();
    expect(spooled()).toEqual(['0 one', '1 two', '2 three']);
    answers.shift()?.();
    // The second batch goes to the store as the first is answered; until it is answered, the spool keeps all.
    await expect.poll(() => answers.length).toBe(1);
    expect(spooled()).toEqual(['0 one', '1 two', '2 three']);
    answers.shift()?.();
    await Promise.all([first, second]);
    expect(spooled()).toEqual([]);
    log.write('four');
    answerAll();
    await log.close();
    expect(spool.listLeft()).toEqual([]);
  });
  it('writes the spool a full batch at a time while the store works, never a line at a time', async () => {
    const { log, answerAll, spool, dir } = createLog(10);
    // The first batch goes to the store and waits there while 25 more lines arrive.
    for (let i = 0; i < 35; i++) log.write(`line ${i}`);
    expect(spool.read(1)).toHaveLength(30);
    const records = readFileSync(path.join(dir, '1.lines'), 'utf8').trim().split('\n');
    expect(records.length).toBeLessThanOrEqual(3);
    answerAll();
    await log.close();
  });

  it('offers a batch the store refuses again, with longer pauses, until it takes it; gives up only after storeRetryMs', async () => {
    const run = async (refusals: number, storeRetryMs?: number) => {
      const stored: string[] = [];
      let attempts = 0;
      const output = {
        storeNumbered: (rows: { output: string }[]) => {
          attempts += 1;
          if (attempts <= refusals) return Promise.reject(new Error('Deadlock found when trying to get lock'));
          stored.push(...rows.map((row) => row.output));
          return Promise.resolve();
        },
      } as unknown as TaskOutputRepository;
      const errors: string[] = [];
      const logger = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
      const log = createTaskLogFactory({
        spool: createSpool().spool,
        output,
        hub: { publishLines: () => undefined } as unknown as LiveHub,
        clock: { now: () => new Date() },
        logger,
        flushIntervalMs: 1,
        ...(storeRetryMs === undefined ? {} : { storeRetryMs }),
      })({ id: 1, project_id: 1 }, 0, {} as Audience);
      log.write('first');
      await log.flush();
      log.write('second');
      await log.close();
      return { stored, attempts, errors };
    };
    // Five refusals in a row (50 + 100 + 200 + 400 + 800 ms of pauses) lose nothing.
    const patient = await run(5);
    expect(patient.stored).toEqual(['first', 'second']);
    expect(patient.attempts).toBe(7);
    expect(patient.errors).toEqual([]);
    // A store that keeps refusing past the limit: the batch is given up and said so, the next one is stored.
    const impatient = await run(3, 200);
    expect(impatient.stored).toEqual(['second']);
    expect(impatient.errors).toHaveLength(1);
    expect(impatient.errors[0]).toContain('could not store task output');
  });
});

describe('task log spool', () => {
  it("keeps each store's lines apart: a data directory pointed at another store finds none left", () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-data-'));
    spoolDirs.push(dataDir);
    const url = 'postgres://gantry:first-Pass@db.example:5432/gantry';
    const spoolOf = (dialect: string, storeUrl: string) =>
      createTaskLogSpool(spoolDirOf(dataDir, dialect, storeUrl), pino({ level: 'silent' }));
    spoolOf('postgres', url)
      .open(7)
      .append([{ seq: 0, time: '2026-11-29T08:00:00Z', output: 'left' }]);
    // The same store with a new password still finds them.
    expect(spoolOf('postgres', 'postgres://gantry:second-Pass@db.example:5432/gantry').listLeft()).toEqual([7]);
    for (const [dialect, other] of [
      ['postgres', 'postgres://gantry:first-Pass@db.example:5432/restored'],
      ['postgres', 'postgres://gantry:first-Pass@db2.example:5432/gantry'],
      ['mysql', 'mysql://gantry:first-Pass@db.example:5432/gantry'],
      ['sqlite', path.join(dataDir, 'gantry.sqlite')],
    ] as const)
      expect(spoolOf(dialect, other).listLeft(), other).toEqual([]);
    // The folder names no credentials.
    expect(spoolDirOf(dataDir, 'postgres', url)).not.toContain('first-Pass');
  });

  it('lists only its own files and reads past a record cut short by a kill', () => {
    const { dir, spool } = createSpool();
    const file = spool.open(7);
    file.append([
      { seq: 3, time: 't3', output: 'a' },
      { seq: 4, time: 't4', output: 'b\nwith a newline' },
    ]);
    writeFileSync(path.join(dir, '7.lines'), '[{"seq":5,"time":"t5","output":"c"}]\n[{"seq":6,"ti', { flag: 'a' });
    writeFileSync(path.join(dir, 'notes.txt'), 'not a spool');
    writeFileSync(path.join(dir, '007.lines'), '');
    writeFileSync(path.join(dir, '-1.lines'), '');
    expect(spool.listLeft()).toEqual([7]);
    expect(spool.read(7)).toEqual([
      { seq: 3, time: 't3', output: 'a' },
      { seq: 4, time: 't4', output: 'b\nwith a newline' },
      { seq: 5, time: 't5', output: 'c' },
    ]);
    spool.discard(7);
    expect(spool.listLeft()).toEqual([]);
  });

  it('reads back the newest 64 MiB of a file at most, from the start of a record', () => {
    const { dir, spool } = createSpool();
    const text = 'x'.repeat(1024 * 1024);
    const records = Array.from({ length: 70 }, (_, seq) => `${JSON.stringify([{ seq, time: 't', output: text }])}\n`);
    writeFileSync(path.join(dir, '9.lines'), records.join(''));
    const seqs = spool.read(9).map((line) => line.seq);
    expect(seqs.length).toBeGreaterThan(60);
    expect(seqs.length).toBeLessThan(64);
    expect(seqs).toEqual(seqs.map((_, i) => 70 - seqs.length + i));
  });
});
