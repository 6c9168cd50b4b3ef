import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { TaskStatus } from '@gantry/contract';
import { json, renderWithProviders, stubFetch } from '../../../testing/render.tsx';
import { makeTask } from '../../../testing/task-fixtures.ts';
import { ERROR_LINE_PATTERN } from '../log/error-lines.ts';
import { TaskLogDialog } from './task-log-dialog.tsx';
import { LOG_POLL_MS } from './use-log-session.ts';

class NoopResizeObserver {
  observe() {}
  disconnect() {}
}

const TASK_URL = '/api/project/1/tasks/7';
const ERROR_SEARCH_URL = `${TASK_URL}/output/search?${new URLSearchParams({ q: ERROR_LINE_PATTERN, case: 'true', regex: 'true', limit: '1' }).toString()}`;

/** The caller's role in project 1: a guest unless a test says otherwise. */
let projectRole = { role: 'guest', permissions: 0 };

function serve(status: TaskStatus, fields: Parameters<typeof makeTask>[1] = {}, errorLines: number[] = []) {
  const output = [
    { id: 1, task_id: 7, task: '', seq: 0, time: '2026-01-01T10:00:00Z', output: 'Task 7 started.' },
    {
      id: 2,
      task_id: 7,
      task: '',
      seq: 1,
      time: '2026-01-01T10:00:01Z',
      output: '\u001b[31mred <b>alert</b>\u001b[0m done',
    },
  ];
  const fake = stubFetch({
    [`GET ${TASK_URL}`]: () => json(200, makeTask(7, { status, start: '2026-01-01T10:00:00Z', ...fields })),
    [`GET ${TASK_URL}/output?offset=0&limit=1000`]: () => json(200, output),
    [`GET ${TASK_URL}/output/search?q=alert&case=false&regex=false&limit=1000`]: () =>
      json(200, { count: 1, lines: [1], searched: 2 }),
    [`GET ${TASK_URL}/output/search?q=%28&case=false&regex=true&limit=1000`]: () =>
      json(400, { error: 'Invalid regular expression: /(/: Unterminated group' }),
    [`GET ${ERROR_SEARCH_URL}`]: () => json(200, { count: errorLines.length, lines: errorLines, searched: 2 }),
    [`GET ${TASK_URL}/hosts`]: () => json(200, HOSTS),
    [`GET ${TASK_URL}/plan`]: () => json(200, PLAN),
    [`GET /api/project/1/role`]: () => json(200, projectRole),
    [`POST ${TASK_URL}/rerun_failed_hosts`]: () => json(201, makeTask(8, { rerun_of_task_id: 7 })),
    [`POST ${TASK_URL}/stop`]: () => new Response(null, { status: 204 }),
    [`POST ${TASK_URL}/confirm`]: () => new Response(null, { status: 204 }),
    [`POST ${TASK_URL}/reject`]: () => new Response(null, { status: 204 }),
  });
  return fake;
}

const PLAN = {
  recap: { add: 2, change: 1, destroy: 1 },
  resources: [
    { address: 'aws_instance.web[0]', action: 'create' },
    { address: 'aws_s3_bucket.logs', action: 'update' },
    { address: 'aws_db_instance.main', action: 'replace' },
  ],
  truncated: false,
};

const counts = { ok: 0, changed: 0, failed: 0, unreachable: 0, skipped: 0, rescued: 0, ignored: 0 };
const HOSTS = {
  truncated: false,
  hosts: [
    {
      host: 'web1',
      ...counts,
      ok: 2,
      failed: 1,
      results: [
        { play: 'Site', task: 'install nginx', status: 'ok', duration_ms: 1200, message: '' },
        { play: 'Site', task: 'start nginx', status: 'failed', duration_ms: 80, message: 'port 80 is taken' },
      ],
    },
    {
      host: 'db1',
      ...counts,
      unreachable: 1,
      results: [{ play: 'Site', task: 'install nginx', status: 'unreachable', duration_ms: 5, message: 'no route' }],
    },
  ],
};

/** Renders the dialog of task 7, opened at `line` when given; returns its callbacks, to see what it hands over. */
function renderDialog(line?: number) {
  const callbacks = { onRerun: vi.fn(), onOpenTask: vi.fn() };
  renderWithProviders(<TaskLogDialog projectId={1} taskId={7} line={line} onClose={() => {}} {...callbacks} />);
  return callbacks;
}

const buttonNames = () =>
  ['Confirm', 'Reject', 'Stop', 'Force stop', 'ReRun', 'ReBuild', 'ReDeploy'].filter(
    (name) => screen.queryByRole('button', { name }) !== null,
  );

describe('TaskLogDialog', () => {
  beforeEach(() => vi.stubGlobal('ResizeObserver', NoopResizeObserver));
  it.each([
    ['waiting', ['Stop']],
    ['starting', ['Stop']],
    ['running', ['Stop']],
    ['waiting_confirmation', ['Confirm', 'Reject', 'Stop']],
    ['confirmed', ['Stop']],
    ['stopping', ['Force stop']],
    ['success', ['ReRun']],
    ['error', ['ReRun']],
    ['stopped', ['ReRun']],
    ['rejected', ['ReRun']],
  ] as const)('in %s offers %j', async (status, expected) => {
    serve(status);
    renderDialog();
    await screen.findByText('Task 7 started.');
    expect(buttonNames()).toEqual(expected);
  });

  it('shows the header: number, template, status label, author', async () => {
    serve('waiting_confirmation');
    renderDialog();
    expect(await screen.findByText('Waiting confirmation')).toBeTruthy();
    expect(screen.getByText('Task #7')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Deploy site' })).toBeTruthy();
    expect(screen.getByText('Ada Admin')).toBeTruthy();
  });

  it('renders ANSI colours as styled spans and markup in the output as text', async () => {
    serve('success');
    renderDialog();
    const red = await screen.findByText('red <b>alert</b>');
    expect(red.className).toBe('ansi-fg-1');
    expect(document.querySelector('[role=log] b')).toBeNull();
  });

  it('confirms with POST confirm', async () => {
    const confirming = serve('waiting_confirmation');
    renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(confirming.calls.some((c) => c.method === 'POST' && c.url.endsWith('/confirm'))).toBe(true),
    );
  });

  it('sends force: true from the force stop button', async () => {
    const stopping = serve('stopping');
    renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Force stop' }));
    await waitFor(() => expect(stopping.calls.find((c) => c.url.endsWith('/stop'))?.body).toEqual({ force: true }));
  });

  it('names the re-run after the template type and hands the task over', async () => {
    serve('success', { tpl_type: 'deploy' });
    const { onRerun } = renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'ReDeploy' }));
    expect(onRerun).toHaveBeenCalledWith(expect.objectContaining({ id: 7 }));
  });

  it('shows the hosts of an ansible task with their counts, expands a host to its task results, and the recap', async () => {
    serve('error', { tpl_app: 'ansible', host_recap: { ok: 0, changed: 0, failed: 1, unreachable: 1 } });
    renderDialog();
    await screen.findByText('Task 7 started.');
    expect(screen.getByLabelText('Hosts by outcome').textContent).toBe('1 failed · 1 unreachable');
    fireEvent.click(screen.getByRole('button', { name: 'Hosts' }));
    const web = await screen.findByText('web1');
    expect(screen.queryByText('Task 7 started.')).toBeNull();
    const row = web.closest('li');
    expect(row?.textContent).toContain('2 ok');
    expect(row?.textContent).toContain('1 failed');
    expect(screen.queryByText('port 80 is taken')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Results of web1' }));
    expect(await screen.findByText('port 80 is taken')).toBeTruthy();
    expect(screen.getByText('start nginx')).toBeTruthy();
    expect(screen.getByText('1.2 s')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Log' }));
    expect(await screen.findByText('Task 7 started.')).toBeTruthy();
  });

  it('offers Rerun failed hosts to a member who may run tasks, and opens the new task', async () => {
    projectRole = { role: 'task_runner', permissions: 1 };
    const fake = serve('error', { tpl_app: 'ansible', host_recap: { ok: 1, changed: 0, failed: 0, unreachable: 1 } });
    const { onOpenTask } = renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Rerun failed hosts' }));
    await waitFor(() => expect(onOpenTask).toHaveBeenCalledWith(8));
    expect(fake.calls.some((call) => call.method === 'POST' && call.url.endsWith('/rerun_failed_hosts'))).toBe(true);
  });

  it('offers no Rerun failed hosts to a guest', async () => {
    projectRole = { role: 'guest', permissions: 0 };
    serve('error', { tpl_app: 'ansible', host_recap: { ok: 1, changed: 0, failed: 1, unreachable: 0 } });
    renderDialog();
    await screen.findByText('Task 7 started.');
    await screen.findByLabelText('Hosts by outcome');
    expect(screen.queryByRole('button', { name: 'Rerun failed hosts' })).toBeNull();
  });

  it('links a rerun to the task it repeats', async () => {
    serve('success', { tpl_app: 'ansible', rerun_of_task_id: 5 });
    const { onOpenTask } = renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Rerun of task 5' }));
    expect(onOpenTask).toHaveBeenCalledWith(5);
  });

  it('opens a terraform plan that waits for confirmation on its list of changes, with the counts', async () => {
    serve('waiting_confirmation', { tpl_app: 'terraform', plan_recap: PLAN.recap });
    renderDialog();
    const replaced = await screen.findByText('aws_db_instance.main');
    expect(replaced.closest('li')?.textContent).toContain('replace');
    expect(screen.getByText('aws_instance.web[0]').closest('li')?.textContent).toContain('create');
    expect(screen.getByLabelText('Plan changes').textContent).toBe('2 to add · 1 to change · 1 to destroy');
    expect(screen.queryByText('Task 7 started.')).toBeNull();
    expect(buttonNames()).toEqual(['Confirm', 'Reject', 'Stop']);
    fireEvent.click(screen.getByRole('button', { name: 'Log' }));
    expect(await screen.findByText('Task 7 started.')).toBeTruthy();
  });

  it('shows a finished terraform task its log first, and its plan on request', async () => {
    serve('success', { tpl_app: 'terraform', plan_recap: PLAN.recap });
    renderDialog();
    await screen.findByText('Task 7 started.');
    fireEvent.click(screen.getByRole('button', { name: 'Plan' }));
    expect(await screen.findByText('aws_s3_bucket.logs')).toBeTruthy();
  });

  it('links a retry to the first task of its chain, saying which retry it is', async () => {
    serve('error', { retry_of_task_id: 4, retry_attempt: 2, retry_limit: 3 });
    const { onOpenTask } = renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Retry 2 of 3 of task 4' }));
    expect(onOpenTask).toHaveBeenCalledWith(4);
  });

  it('offers no hosts view for a task of another app', async () => {
    serve('success');
    renderDialog();
    await screen.findByText('Task 7 started.');
    expect(screen.queryByRole('button', { name: 'Hosts' })).toBeNull();
  });

  it('remembers the fullscreen choice', async () => {
    serve('success');
    renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Fullscreen' }));
    expect(window.localStorage.getItem('gantry.fullscreen.task_log')).toBe('true');
    expect(screen.getByRole('button', { name: 'Exit fullscreen' })).toBeTruthy();
  });
  it('without live events (a task on another server while Redis is away) polls the log tail and the status', async () => {
    let finished = false;
    stubFetch({
      [`GET ${TASK_URL}`]: () =>
        json(200, makeTask(7, { status: finished ? 'success' : 'running', start: '2026-01-01T10:00:00Z' })),
      [`GET ${TASK_URL}/output?offset=0&limit=1000`]: () =>
        json(200, [{ id: 1, task_id: 7, task: '', seq: 0, time: '2026-01-01T10:00:00Z', output: 'Task 7 started.' }]),
      [`GET ${TASK_URL}/output?offset=1&limit=5000`]: () => {
        finished = true;
        return json(200, [
          { id: 2, task_id: 7, task: '', seq: 1, time: '2026-01-01T10:00:01Z', output: 'written on the other server' },
        ]);
      },
    });
    renderDialog();
    await screen.findByText('Task 7 started.');
    expect(
      await screen.findByText('written on the other server', {}, { timeout: LOG_POLL_MS * 2 + 1000 }),
    ).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Success')).toBeTruthy(), { timeout: LOG_POLL_MS * 2 + 1000 });
  }, 15_000);

  it('Ctrl+F opens a search of the whole log that counts, highlights the current match and closes on Escape', async () => {
    serve('success');
    renderDialog();
    await screen.findByText('Task 7 started.');
    fireEvent.keyDown(screen.getByRole('log'), { key: 'f', ctrlKey: true });
    const input = await screen.findByRole('textbox', { name: 'Search in the log' });
    await waitFor(() => expect(document.activeElement).toBe(input));
    fireEvent.change(input, { target: { value: 'alert' } });
    expect(await screen.findByText('1 of 1')).toBeTruthy();
    await waitFor(() =>
      expect(
        screen.getByText('done', { exact: false }).closest('.log-line')?.classList.contains('log-line--focus'),
      ).toBe(true),
    );
    expect(screen.getByText('Task 7 started.').closest('.log-line')?.className).toBe('log-line');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.getByText('1 of 1')).toBeTruthy();
    fireEvent.keyDown(input, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('search')).toBeNull());
  });

  it('shows the server’s reason for a regular expression it refuses', async () => {
    serve('success');
    renderDialog();
    await screen.findByText('Task 7 started.');
    fireEvent.click(screen.getByRole('button', { name: 'Search in the log' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Regular expression' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Search in the log' }), { target: { value: '(' } });
    expect(await screen.findByText(/Invalid regular expression/)).toBeTruthy();
  });

  it('opens at a linked line, highlighted', async () => {
    serve('success');
    renderDialog(2);
    await screen.findByText('Task 7 started.');
    await waitFor(() =>
      expect(
        screen.getByText('done', { exact: false }).closest('.log-line')?.classList.contains('log-line--focus'),
      ).toBe(true),
    );
  });

  it('Jump to first error highlights the line the server found', async () => {
    const fake = serve('error', {}, [1]);
    renderDialog();
    await screen.findByText('Task 7 started.');
    const jump = screen.getByRole('button', { name: 'Jump to first error' });
    await waitFor(() => expect((jump as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(jump);
    await waitFor(() =>
      expect(
        screen.getByText('done', { exact: false }).closest('.log-line')?.classList.contains('log-line--focus'),
      ).toBe(true),
    );
    expect(fake.calls.some((call) => call.url === ERROR_SEARCH_URL)).toBe(true);
  });

  it('Jump to first error is disabled in a log without an error line', async () => {
    serve('success');
    renderDialog();
    await screen.findByText('Task 7 started.');
    await waitFor(() => expect(screen.getByLabelText('No line looks like an error')).toBeTruthy());
    expect((screen.getByRole('button', { name: 'Jump to first error' }) as HTMLButtonElement).disabled).toBe(true);
  });

  /** Opens the log, picks `item` from line `line`'s actions and returns what was written to the clipboard. */
  async function copyFromLineActions(line: number, item: string, confirmation: string) {
    serve('success');
    const writeText = vi.fn((_text: string) => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    vi.stubGlobal('isSecureContext', true);
    renderDialog();
    await screen.findByText('Task 7 started.');
    fireEvent.click(screen.getByRole('button', { name: `Actions of line ${line}` }));
    fireEvent.click(await screen.findByRole('menuitem', { name: item }));
    expect(await screen.findByText(confirmation)).toBeTruthy();
    return writeText.mock.calls.map(([text]) => text);
  }

  it('copies a line without its colour codes from the line’s actions', async () => {
    expect(await copyFromLineActions(2, 'Copy line', 'Line copied to the clipboard.')).toEqual([
      'red <b>alert</b> done',
    ]);
  });

  it('copies the absolute address of a line', async () => {
    expect(await copyFromLineActions(1, 'Copy link to line', 'Link to the line copied to the clipboard.')).toEqual([
      `${window.location.origin}${window.location.pathname}?t=7&line=1`,
    ]);
  });
});
