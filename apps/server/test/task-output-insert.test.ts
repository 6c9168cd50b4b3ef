import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTaskOutputRepository } from '../src/modules/tasks/task-output.repository.ts';
import { insertTaskRow, useProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('storing task output in bulk on %s', (dialect) => {
  const t = useTestApp(dialect);
  const p = useProjectFixture(t, { 'noop.sh': 'true\n' });

  const newTask = async () =>
    insertTaskRow(t, {
      project_id: p.projectId,
      template_id: await p.createTemplate({ playbook: 'noop.sh' }),
      status: 'running',
    });
  const storedCount = async (taskId: number) =>
    (
      await t.runtime.connection.db
        .selectFrom('task')
        .select('output_lines')
        .where('id', '=', taskId)
        .executeTakeFirstOrThrow()
    ).output_lines;
  // What each store keeps of a line: PostgreSQL's text cannot hold NUL, which it keeps as U+FFFD.
  const kept = (output: string) => (dialect === 'postgres' ? output.replaceAll('\0', '\uFFFD') : output);

  // Characters a bulk format could take for its own (tab, newline, backslash and its escapes, COPY's end
  // marker and NULL, quotes, placeholders, CR, braces, commas), NUL, wide characters, and an empty line.
  const special = [
    'a\tb',
    'back\\slash \\N \\t \\\\n',
    '\\.',
    '\\',
    '\\N',
    'line\nfeed and\r\nCRLF',
    'nul\0byte\0',
    `quote ' and " and \`tick\` ? ?? $1 %s`,
    'carriage\rreturn',
    '{1,2} (x) NULL',
    'ünï €𝄞 \u{1F600} \u200B',
    '\u0001\u001F\u007F\u0085\u2028',
    '',
  ];

  it('stores every line of a batch larger than one statement takes, byte for byte and in order', async () => {
    const taskId = await newTask();
    const repository = createTaskOutputRepository(t.runtime.connection.db, dialect);
    const time = new Date().toISOString();
    // Long lines whose text alone is more than one statement may carry.
    const long = 'x'.repeat(400_000);
    const outputs = Array.from({ length: 12_000 }, (_, i) =>
      i % 1000 === 999 ? `${i}${long}` : `${i} ${special[i % special.length]}`,
    );
    await repository.storeNumbered(
      outputs.map((output, seq) => ({ task_id: taskId, seq, time, output })),
      taskId,
      outputs.length,
    );
    const stored = await repository.list(taskId, 0, undefined);
    expect(stored.map((row) => row.seq)).toEqual(outputs.map((_, seq) => seq));
    expect(stored.map((row) => row.output)).toEqual(outputs.map(kept));
    expect(await storedCount(taskId)).toBe(outputs.length);
  });

  it('stores lines made only of special characters exactly, one batch after the other in order', async () => {
    const taskId = await newTask();
    const repository = createTaskOutputRepository(t.runtime.connection.db, dialect);
    const time = new Date().toISOString();
    let next = 0;
    for (const batch of [special, [...special].reverse(), special.map((s) => s + s)]) {
      await repository.storeNumbered(
        batch.map((output, i) => ({ task_id: taskId, seq: next + i, time, output })),
        taskId,
        next + batch.length,
      );
      next += batch.length;
    }
    const expected = [...special, ...[...special].reverse(), ...special.map((s) => s + s)];
    const stored = await repository.list(taskId, 0, undefined);
    expect(stored.map((row) => [row.seq, row.output])).toEqual(expected.map((output, seq) => [seq, kept(output)]));
    expect(stored.every((row) => row.time === time)).toBe(true);
  });

  it('stores a few long lines exactly, whether their text is small enough for one statement or not', async () => {
    const taskId = await newTask();
    const repository = createTaskOutputRepository(t.runtime.connection.db, dialect);
    const time = new Date().toISOString();
    const batches = [
      ['a'.repeat(100_000), `b\t${'\\'.repeat(50_000)}`],
      ['c'.repeat(200_000), 'd\0'.repeat(100_000)],
    ];
    let next = 0;
    for (const batch of batches) {
      await repository.storeNumbered(
        batch.map((output, i) => ({ task_id: taskId, seq: next + i, time, output })),
        taskId,
        next + batch.length,
      );
      next += batch.length;
    }
    const stored = await repository.list(taskId, 0, undefined);
    expect(stored.map((row) => row.output)).toEqual(batches.flat().map(kept));
    expect(await storedCount(taskId)).toBe(4);
  });

  it("appends a runner's lines exactly, and a resent report once", async () => {
    const taskId = await newTask();
    const repository = createTaskOutputRepository(t.runtime.connection.db, dialect);
    const time = new Date().toISOString();
    const records = special.map((output) => ({ time, output }));
    await repository.append(taskId, records.slice(0, 5), 0);
    await repository.append(taskId, records, 0);
    await repository.append(taskId, records.slice(3), 3);
    const stored = await repository.list(taskId, 0, undefined);
    expect(stored.map((row) => [row.seq, row.output])).toEqual(special.map((output, seq) => [seq, kept(output)]));
    expect(await storedCount(taskId)).toBe(special.length);
  });

  it('stores nothing of a batch that fails, and the next batch goes in on the same store', async () => {
    const taskId = await newTask();
    const repository = createTaskOutputRepository(t.runtime.connection.db, dialect);
    const time = new Date().toISOString();
    await repository.storeNumbered([{ task_id: taskId, seq: 0, time, output: 'first' }], taskId, 1);
    // Sequence number 0 again, after 3,000 good lines: the unique index refuses the batch.
    const clashing = Array.from({ length: 3001 }, (_, i) => ({
      task_id: taskId,
      seq: i === 3000 ? 0 : i + 1,
      time,
      output: `clash ${i}`,
    }));
    await expect(repository.storeNumbered(clashing, taskId, 3002)).rejects.toThrow();
    // A small batch too (PostgreSQL stores those with the count in one statement).
    const smallClash = [1, 0].map((seq) => ({ task_id: taskId, seq, time, output: `small clash ${seq}` }));
    await expect(repository.storeNumbered(smallClash, taskId, 2)).rejects.toThrow();
    expect((await repository.list(taskId, 0, undefined)).map((row) => row.output)).toEqual(['first']);
    expect(await storedCount(taskId)).toBe(1);
    // Every connection of the pool is used again (more batches than connections).
    for (let seq = 1; seq <= 20; seq++)
      await repository.storeNumbered([{ task_id: taskId, seq, time, output: `after ${seq}` }], taskId, seq + 1);
    expect(await storedCount(taskId)).toBe(21);
    expect((await repository.list(taskId, 0, undefined)).map((row) => row.seq)).toEqual(
      Array.from({ length: 21 }, (_, i) => i),
    );
  });

  it('stores no lines for a task that is gone, small batch or large', async () => {
    const taskId = await newTask();
    const repository = createTaskOutputRepository(t.runtime.connection.db, dialect);
    await t.runtime.connection.db.deleteFrom('task').where('id', '=', taskId).execute();
    const time = new Date().toISOString();
    for (const size of [3, 3000]) {
      const rows = Array.from({ length: size }, (_, seq) => ({ task_id: taskId, seq, time, output: `orphan ${seq}` }));
      await repository.storeNumbered(rows, taskId, size);
    }
    expect(await repository.list(taskId, 0, undefined)).toEqual([]);
  });

  // Last: once refused, this process inserts instead of loading for the rest of the file.
  it.runIf(dialect === 'mysql')('stores lines with inserts when the server refuses LOAD DATA LOCAL', async () => {
    const taskId = await newTask();
    const { db } = t.runtime.connection;
    const repository = createTaskOutputRepository(db, dialect);
    const time = new Date().toISOString();
    await sql`set global local_infile = 0`.execute(db);
    try {
      await expect(
        sql`load data local infile 'x' into table task_output (task_id, seq, time, output)`.execute(db),
      ).rejects.toThrow();
      await repository.storeNumbered(
        special.map((output, seq) => ({ task_id: taskId, seq, time, output })),
        taskId,
        special.length,
      );
    } finally {
      await sql`set global local_infile = 1`.execute(db);
    }
    const stored = await repository.list(taskId, 0, undefined);
    expect(stored.map((row) => [row.seq, row.output])).toEqual(special.map((output, seq) => [seq, output]));
  });
});
