import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { ActiveTask, TaskWithTemplate } from '@gantry/contract';
import { makeTask } from '../testing/task-fixtures.ts';
import { LIVE_RECONNECT_MS, applyTaskUpdate, createLiveConnection, getLiveEventsUrl, taskKeys } from './live-events.ts';
import type { SocketLike } from './live-events.ts';

class FakeSocket implements SocketLike {
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {}
  open() {
    this.onopen?.(new Event('open'));
  }
  send(message: unknown) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
  }
  drop() {
    this.onclose?.(new CloseEvent('close'));
  }
  close() {
    this.closed = true;
    this.onclose?.(new CloseEvent('close'));
  }
}

const task = makeTask;

const update = (taskId: number, status: string, templateId = 3) => ({
  type: 'update',
  task_id: taskId,
  template_id: templateId,
  project_id: 1,
  status,
  start: '2026-01-01T00:00:01Z',
  end: null,
  version: null,
});

describe('live connection', () => {
  let sockets: FakeSocket[];
  let queryClient: QueryClient;
  const connect = () => {
    const connection = createLiveConnection({
      url: 'ws://gantry/api/ws?batch=1',
      queryClient,
      createSocket: (url) => {
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket;
      },
    });
    connection.start();
    sockets.at(-1)?.open();
    return connection;
  };

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
    queryClient = new QueryClient();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for batched log lines on the same host', () => {
    expect(getLiveEventsUrl({ protocol: 'https:', host: 'ci.example.com' })).toBe(
      'wss://ci.example.com/api/ws?batch=1',
    );
    expect(getLiveEventsUrl({ protocol: 'http:', host: 'localhost:3000' })).toBe('ws://localhost:3000/api/ws?batch=1');
  });

  it('merges an update into the task, the history row and the template list row', () => {
    queryClient.setQueryData(taskKeys.detail(1, 7), task(7));
    queryClient.setQueryData(taskKeys.last(1), [task(8), task(7)]);
    queryClient.setQueryData(taskKeys.templateLast(1, 3, 200), [task(7)]);
    connect();
    sockets[0]?.send(update(7, 'running'));
    expect(queryClient.getQueryData<TaskWithTemplate>(taskKeys.detail(1, 7))?.status).toBe('running');
    expect(queryClient.getQueryData<TaskWithTemplate[]>(taskKeys.last(1))?.map((t) => t.status)).toEqual([
      'waiting',
      'running',
    ]);
    expect(queryClient.getQueryData<TaskWithTemplate[]>(taskKeys.templateLast(1, 3, 200))?.[0]?.start).toBe(
      '2026-01-01T00:00:01Z',
    );
  });

  it('reloads a list that does not hold the task yet, once per burst', async () => {
    queryClient.setQueryData(taskKeys.last(1), [task(7)]);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    connect();
    sockets[0]?.send(update(9, 'starting'));
    sockets[0]?.send(update(9, 'running'));
    sockets[0]?.send(update(10, 'starting'));
    expect(invalidate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: taskKeys.last(1), exact: true });
  });

  it('ignores updates of other projects and other templates lists', () => {
    queryClient.setQueryData(taskKeys.last(2), [task(7, { project_id: 2 })]);
    queryClient.setQueryData(taskKeys.templateLast(1, 4, 200), [task(70, { template_id: 4 })]);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    connect();
    sockets[0]?.send(update(7, 'running'));
    vi.advanceTimersByTime(2000);
    expect(queryClient.getQueryData<TaskWithTemplate[]>(taskKeys.last(2))?.[0]?.status).toBe('waiting');
    expect(invalidate).not.toHaveBeenCalled();
  });

  it("follows a template list's last task: patches the task it shows, reads the list again for a newer one", async () => {
    const listKey = ['projects', 1, 'templates', 'list', 0];
    const template = (id: number, lastTaskId: number | null) => ({
      id,
      last_task_id: lastTaskId,
      last_task: lastTaskId ? { id: lastTaskId, status: 'waiting' } : null,
    });
    queryClient.setQueryData(listKey, [template(3, 7), template(4, null)]);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    connect();
    sockets[0]?.send(update(7, 'running'));
    expect(queryClient.getQueryData<Array<{ last_task: { status: string } | null }>>(listKey)?.[0]?.last_task).toEqual({
      id: 7,
      status: 'running',
      start: '2026-01-01T00:00:01Z',
      end: null,
      version: null,
    });
    await vi.advanceTimersByTimeAsync(1000);
    expect(invalidate).not.toHaveBeenCalled();
    sockets[0]?.send(update(5, 'success'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(invalidate).not.toHaveBeenCalled();
    sockets[0]?.send(update(12, 'waiting', 4));
    await vi.advanceTimersByTimeAsync(1000);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: listKey, exact: true });
  });

  it('drops finished tasks from the active list and keeps running ones current', () => {
    const active: ActiveTask[] = [
      { task_id: 7, project_id: 1, status: 'waiting', location: 'queue' },
      { task_id: 8, project_id: 1, status: 'running', location: 'running' },
    ];
    queryClient.setQueryData(taskKeys.active, active);
    connect();
    sockets[0]?.send(update(7, 'running'));
    sockets[0]?.send(update(8, 'success'));
    expect(queryClient.getQueryData<ActiveTask[]>(taskKeys.active)).toEqual([
      { task_id: 7, project_id: 1, status: 'running', location: 'running' },
    ]);
  });

  it('hands log batches to the subscribers of that task and project only, and ignores invalid messages', () => {
    const connection = connect();
    const received: number[][] = [];
    const unsubscribe = connection.subscribeTaskLog(1, 7, (lines) => received.push(lines.map((l) => l.seq)));
    const batch = (taskId: number, projectId: number, seqs: number[]) => ({
      type: 'logs',
      task_id: taskId,
      project_id: projectId,
      lines: seqs.map((seq) => ({ seq, time: '2026-01-01T00:00:00Z', output: `line ${seq}` })),
    });
    sockets[0]?.send(batch(7, 1, [0, 1]));
    sockets[0]?.send(batch(8, 1, [0]));
    sockets[0]?.send(batch(7, 2, [5]));
    sockets[0]?.send({ type: 'logs', task_id: 7, project_id: 1, lines: [{ seq: 'x' }] });
    sockets[0]?.onmessage?.(new MessageEvent('message', { data: 'not json' }));
    sockets[0]?.send(batch(7, 1, [2]));
    unsubscribe();
    sockets[0]?.send(batch(7, 1, [3]));
    expect(received).toEqual([[0, 1], [2]]);
  });

  it('reconnects 2 seconds after the socket closed, then refreshes task queries and tells the log views', async () => {
    const connection = connect();
    const reconnected = vi.fn();
    connection.subscribeReconnect(reconnected);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    sockets[0]?.drop();
    await vi.advanceTimersByTimeAsync(LIVE_RECONNECT_MS - 1);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(2);
    sockets[1]?.open();
    expect(reconnected).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledTimes(1);
  });

  it('stops for good when stopped (sign-out)', async () => {
    const connection = connect();
    connection.stop();
    expect(sockets[0]?.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sockets).toHaveLength(1);
  });
});

describe('applyTaskUpdate while a list is loading', () => {
  it('reads the list again after a response that may predate the update', async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(taskKeys.last(1), [task(7)]);
    let resolve: (rows: TaskWithTemplate[]) => void = () => undefined;
    const pending = queryClient.fetchQuery({
      queryKey: taskKeys.last(1),
      queryFn: () => new Promise<TaskWithTemplate[]>((r) => (resolve = r)),
      staleTime: 0,
    });
    const reloads: unknown[] = [];
    applyTaskUpdate(
      queryClient,
      {
        type: 'update',
        task_id: 7,
        template_id: 3,
        project_id: 1,
        status: 'success',
        start: null,
        end: null,
        version: null,
      },
      (key) => reloads.push(key),
    );
    resolve([task(7, { status: 'running' })]);
    await pending;
    expect(reloads).toEqual([taskKeys.last(1)]);
  });
});
