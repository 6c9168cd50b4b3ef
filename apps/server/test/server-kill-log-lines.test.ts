import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dialect } from '../src/db/database.ts';
import { LATE_LINES_NOTE } from '../src/modules/tasks/task-recovery.ts';
import { freePort } from './machine.ts';
import {
  createScriptTemplate,
  signInToProcess,
  startServerProcess,
  type ProcessApi,
} from './server-process-fixture.ts';
import { createTestDatabase, listTestDialects, serverStoreEnvironment, type TestDatabase } from './test-databases.ts';

/** A transaction of the test's own that holds the task's row, so the server cannot store the task's lines. */
async function holdTaskRow(dialect: Dialect, url: string, taskId: number): Promise<() => Promise<void>> {
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('begin');
    await client.query('select id from task where id = $1 for update', [taskId]);
    return async () => {
      await client.query('rollback');
      await client.end();
    };
  }
  const connection = await createConnection({ uri: url });
  await connection.query('begin');
  await connection.query('select id from task where id = ? for update', [taskId]);
  return async () => {
    await connection.query('rollback');
    await connection.end();
  };
}

/** Appends a line to the task's log and ends it, in the store, as a surviving node closes a task of a silent one. */
async function closeTaskAsAnotherNode(dialect: Dialect, url: string, taskId: number, line: string): Promise<void> {
  const statements = [
    `insert into task_output (task_id, seq, time, output) select id, output_lines, '2026-01-01T00:00:00Z', '${line}' from task where id = ${taskId}`,
    `update task set output_lines = output_lines + 1, status = 'error' where id = ${taskId}`,
  ];
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    for (const statement of statements) await client.query(statement);
    await client.end();
    return;
  }
  const connection = await createConnection({ uri: url });
  for (const statement of statements) await connection.query(statement);
  await connection.end();
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A store a test can hold a row of while a server process waits for it; SQLite's writers wait on the server's own thread.
const dialects = (await listTestDialects()).filter((dialect) => dialect !== 'sqlite');

describe.each(dialects)('lines a killed server had read but not stored, on %s', (dialect) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-kill-lines-'));
  const scripts = mkdtempSync(path.join(os.tmpdir(), 'gantry-kill-lines-scripts-'));
  const children: ChildProcess[] = [];
  let database: TestDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    env = serverStoreEnvironment(database, 'kill-Lines-Pass-1');
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await database?.drop();
    for (const dir of [dataDir, scripts]) rmSync(dir, { recursive: true, force: true });
  });

  async function start(port: number): Promise<{ child: ChildProcess; call: ProcessApi }> {
    const started = await startServerProcess({ dataDir, port, env });
    children.push(started.child);
    return { child: started.child, call: await signInToProcess(started.url, 'admin', 'kill-Lines-Pass-1') };
  }

  /**
   * Starts a task printing a numbered line every few milliseconds, holds its row in the store so that the
   * server reads its lines but cannot store them, and kills the server with SIGKILL: what the script had
   * printed by then (300 ms before the kill) must come back.
   */
  async function killWhileStoreHeld(project: string) {
    const progress = path.join(scripts, `${project}.progress`);
    writeFileSync(
      path.join(scripts, `${project}.sh`),
      // The count is renamed into place: a reader never sees the file truncated and not yet written.
      `i=0\nwhile [ $i -lt 100000 ]; do i=$((i+1)); echo "line $i"; echo $i > '${progress}.new'; mv '${progress}.new' '${progress}'; sleep 0.005; done\n`,
    );
    const port = await freePort();
    const { child, call } = await start(port);
    const { base, templateId } = await createScriptTemplate(call, scripts, {
      project,
      template: 'Count',
      playbook: `${project}.sh`,
    });
    const task = await call('POST', `${base}/tasks`, { template_id: templateId });
    const scriptLines = async () =>
      (await call<{ output: string }[]>('GET', `${base}/tasks/${task.id}/output`)).filter((l) =>
        /^line \d+$/.test(l.output),
      ).length;
    await expect.poll(scriptLines, { timeout: 20_000 }).toBeGreaterThan(5);

    const release = await holdTaskRow(dialect, database.url, task.id);
    await wait(1500);
    const storedWhileHeld = await scriptLines();
    const progressText = readFileSync(progress, 'utf8').trim();
    expect(progressText).toMatch(/^\d+$/);
    const printedBeforeKill = Number(progressText);
    // Well past the log's flush interval: every line printed by then has been read and spooled.
    await wait(300);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    await release();
    expect(printedBeforeKill).toBeGreaterThan(storedWhileHeld + 20);
    return { port, base, taskId: task.id, printedBeforeKill };
  }

  /** The task's stored lines after a restart, and the numbers of the script's lines among them. */
  async function linesAfterRestart(port: number, base: string, taskId: number) {
    const after = await start(port);
    const lines = (await after.call<{ output: string }[]>('GET', `${base}/tasks/${taskId}/output`)).map(
      (l) => l.output,
    );
    const numbers = lines.flatMap((line) => (/^line \d+$/.test(line) ? [Number(line.slice(5))] : []));
    return { lines, numbers, status: (await after.call('GET', `${base}/tasks/${taskId}`)).status };
  }

  it('are stored, in their place, when the server starts again', async () => {
    const { port, base, taskId, printedBeforeKill } = await killWhileStoreHeld('Restart');
    const { lines, numbers, status } = await linesAfterRestart(port, base, taskId);
    expect(numbers.length).toBeGreaterThanOrEqual(printedBeforeKill);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    // In their place: before the note that closes the task, with no note of lines coming late.
    const closing = lines.indexOf(
      'Gantry restarted while this task was running; the task can no longer be followed and was closed.',
    );
    expect(closing).toBeGreaterThan(lines.indexOf(`line ${numbers.length}`));
    expect(lines.filter((line) => line === LATE_LINES_NOTE)).toEqual([]);
    expect(status).toBe('error');
  });

  it('follow the note of whoever closed the task meanwhile, after a note of their own', async () => {
    const { port, base, taskId, printedBeforeKill } = await killWhileStoreHeld('Closed');
    // What a surviving node does to a task of a silent one: a closing line, then the final status.
    const closed =
      'The Gantry server running this task stopped answering; the task can no longer be followed and was closed.';
    await closeTaskAsAnotherNode(dialect, database.url, taskId, closed);
    const { lines, numbers, status } = await linesAfterRestart(port, base, taskId);
    expect(numbers.length).toBeGreaterThanOrEqual(printedBeforeKill);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    const note = lines.indexOf(LATE_LINES_NOTE);
    expect(lines.indexOf(closed)).toBeLessThan(note);
    expect(note).toBeGreaterThan(0);
    expect(note).toBeLessThan(lines.lastIndexOf(`line ${numbers.length}`));
    expect(status).toBe('error');
  });
});
