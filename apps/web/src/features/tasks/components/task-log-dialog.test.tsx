import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { TaskStatus } from '@gantry/contract';
import { fakeFetch, json, renderWithProviders } from '../../../testing/render.tsx';
import { makeTask } from '../../../testing/task-fixtures.ts';
import { LOG_POLL_MS, TaskLogDialog } from './task-log-dialog.tsx';

class NoopResizeObserver {
  observe() {}
  disconnect() {}
}

const TASK_URL = '/api/project/1/tasks/7';

function serve(status: TaskStatus, fields: Parameters<typeof makeTask>[1] = {}) {
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
  const fake = fakeFetch({
    [`GET ${TASK_URL}`]: () => json(200, makeTask(7, { status, start: '2026-01-01T10:00:00Z', ...fields })),
    [`GET ${TASK_URL}/output?offset=0&limit=1000`]: () => json(200, output),
    [`POST ${TASK_URL}/stop`]: () => new Response(null, { status: 204 }),
    [`POST ${TASK_URL}/confirm`]: () => new Response(null, { status: 204 }),
    [`POST ${TASK_URL}/reject`]: () => new Response(null, { status: 204 }),
  });
  vi.stubGlobal('fetch', fake.fetchImpl);
  return fake;
}

function renderDialog(onRerun = vi.fn()) {
  renderWithProviders(<TaskLogDialog projectId={1} taskId={7} onClose={() => {}} onRerun={onRerun} />);
  return onRerun;
}

const buttonNames = () =>
  ['Confirm', 'Reject', 'Stop', 'Force stop', 'ReRun', 'ReBuild', 'ReDeploy'].filter(
    (name) => screen.queryByRole('button', { name }) !== null,
  );

describe('TaskLogDialog', () => {
  beforeEach(() => vi.stubGlobal('ResizeObserver', NoopResizeObserver));
  afterEach(() => vi.unstubAllGlobals());

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
    const onRerun = renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'ReDeploy' }));
    expect(onRerun).toHaveBeenCalledWith(expect.objectContaining({ id: 7 }));
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
    const fake = fakeFetch({
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
    vi.stubGlobal('fetch', fake.fetchImpl);
    renderDialog();
    await screen.findByText('Task 7 started.');
    expect(
      await screen.findByText('written on the other server', {}, { timeout: LOG_POLL_MS * 2 + 1000 }),
    ).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Success')).toBeTruthy(), { timeout: LOG_POLL_MS * 2 + 1000 });
  }, 15_000);
});
