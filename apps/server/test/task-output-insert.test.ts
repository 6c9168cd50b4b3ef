import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskOutputRepository } from '../src/modules/tasks/task-output.repository.ts';
import { createProjectFixture, insertTaskRow, type ProjectFixture } from './task-fixture.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('storing task output in bulk on %s', (dialect) => {
  let t: TestApp;
  let p: ProjectFixture;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    p = await createProjectFixture(t, { 'noop.sh': 'true\n' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores every line of a batch larger than one statement takes, byte for byte and in order', async () => {
    const taskId = await insertTaskRow(t, {
      project_id: p.projectId,
      template_id: await p.createTemplate({ playbook: 'noop.sh' }),
      status: 'running',
    });
    const repository = createTaskOutputRepository(t.runtime.connection.db, dialect);
    const time = new Date().toISOString();
    // Characters a bulk format could take for its own (tab, backslash, quotes, CR, braces, commas), wide
    // characters, and long lines whose text alone is more than one statement may carry.
    const special = [
      'a\tb',
      'back\\slash \\N \\t',
      `quote ' and " and \`tick\``,
      'carriage\rreturn',
      '{1,2} (x) NULL',
      'ünï €𝄞',
      '',
    ];
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
    expect(stored.map((row) => row.output)).toEqual(outputs);
    expect(
      (
        await t.runtime.connection.db
          .selectFrom('task')
          .select('output_lines')
          .where('id', '=', taskId)
          .executeTakeFirstOrThrow()
      ).output_lines,
    ).toBe(outputs.length);
  });
});
