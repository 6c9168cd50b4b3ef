import { createContext, createElement, useContext, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { TaskLogBatchMessage, TaskUpdateMessage, isTaskFinished } from '@gantry/contract';
import type { ActiveTask, TaskWithTemplate, Template } from '@gantry/contract';
import { resourceKeys } from './project-resources.ts';

/** The socket reconnects this long after it closed. */
export const LIVE_RECONNECT_MS = 2000;

/** Reloads of a list that missed a task are coalesced over this window. */
const RELOAD_COALESCE_MS = 1000;

/**
 * Query keys of everything about tasks, shared by the task screens and by the live updates that
 * patch them. Task queries of a project live under ['projects', projectId, 'tasks'].
 */
export const taskKeys = {
  project: (projectId: number) => ['projects', projectId, 'tasks'] as const,
  detail: (projectId: number, taskId: number) => ['projects', projectId, 'tasks', 'detail', taskId] as const,
  /** The project's history (GET tasks/last). */
  last: (projectId: number) => ['projects', projectId, 'tasks', 'last'] as const,
  /** Every task query of one template. */
  template: (projectId: number, templateId: number) =>
    ['projects', projectId, 'tasks', 'template', templateId] as const,
  templateLast: (projectId: number, templateId: number, limit: number) =>
    ['projects', projectId, 'tasks', 'template', templateId, 'last', limit] as const,
  templateSuccessful: (projectId: number, templateId: number) =>
    ['projects', projectId, 'tasks', 'template', templateId, 'success'] as const,
  templateStats: (projectId: number, templateId: number, start: string, userId: number | null) =>
    ['projects', projectId, 'tasks', 'template', templateId, 'stats', start, userId] as const,
  active: ['tasks', 'active'] as const,
};

type LiveLogLine = TaskLogBatchMessage['lines'][number];

export interface LiveEvents {
  /** Live log lines of one task, batch by batch, in order. */
  subscribeTaskLog(projectId: number, taskId: number, listener: (lines: LiveLogLine[]) => void): () => void;
  /** Every task status change the user may see. */
  subscribeUpdates(listener: (message: TaskUpdateMessage) => void): () => void;
  /** Called each time the socket (re)opens after having been closed: whatever happened meanwhile was missed. */
  subscribeReconnect(listener: () => void): () => void;
}

/** The part of the browser's WebSocket the connection uses; tests pass a fake. */
export interface SocketLike {
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  close(code?: number, reason?: string): void;
}

export interface LiveConnectionOptions {
  url: string;
  queryClient: QueryClient;
  createSocket?: (url: string) => SocketLike;
  reconnectMs?: number;
}

export interface LiveConnection extends LiveEvents {
  start(): void;
  stop(): void;
}

type Patch = Pick<TaskUpdateMessage, 'status' | 'start' | 'end' | 'version'>;

function patchRows<T extends { id: number }>(rows: readonly T[], id: number, patch: Patch): T[] {
  return rows.map((row) => (row.id === id ? { ...row, ...patch } : row));
}

/**
 * Applies a task status change to every cached query that shows the task: its details, the
 * project history, the template's task lists and the template lists' last task change the matching
 * row; a list that does not hold the task yet is reloaded (coalesced), build versions and stats
 * reload when they change.
 */
export function applyTaskUpdate(
  queryClient: QueryClient,
  message: TaskUpdateMessage,
  reload: (queryKey: QueryKey) => void,
): void {
  const patch: Patch = { status: message.status, start: message.start, end: message.end, version: message.version };
  const finished = isTaskFinished(message.status);
  // A response already on its way may predate this update and overwrite the patch: read again after it.
  const reloadIfFetching = (queryKey: QueryKey) => {
    if (queryClient.getQueryState(queryKey)?.fetchStatus === 'fetching') reload(queryKey);
  };
  const detailKey = taskKeys.detail(message.project_id, message.task_id);
  const cached = queryClient.setQueryData<TaskWithTemplate>(detailKey, (old) => (old ? { ...old, ...patch } : old));
  // An ansible task's hosts recap is stored as it ends, and the update does not carry it.
  if (finished && cached?.tpl_app === 'ansible') reload(detailKey);
  else reloadIfFetching(detailKey);

  for (const [queryKey, data] of queryClient.getQueriesData<unknown>({
    queryKey: taskKeys.project(message.project_id),
  })) {
    const [, , , kind, templateId, list] = queryKey;
    const isHistory = kind === 'last';
    const isTemplateList = kind === 'template' && templateId === message.template_id;
    if (kind === 'hosts') {
      if (finished) reload(queryKey);
      continue;
    }
    if (isTemplateList && list === 'success') {
      if (message.status === 'success') reload(queryKey);
      continue;
    }
    if (isTemplateList && list === 'stats') {
      if (finished) reload(queryKey);
      continue;
    }
    if (!(isHistory || (isTemplateList && list === 'last'))) continue;
    if (!Array.isArray(data)) continue;
    const rows = data as TaskWithTemplate[];
    if (rows.some((row) => row.id === message.task_id)) {
      queryClient.setQueryData<TaskWithTemplate[]>(queryKey, patchRows(rows, message.task_id, patch));
      reloadIfFetching(queryKey);
    } else reload(queryKey);
  }

  // Template lists show each template's last task: patch it, or read the list again for a newer task.
  for (const [queryKey, data] of queryClient.getQueriesData<unknown>({
    queryKey: [...resourceKeys.templates(message.project_id), 'list'],
  })) {
    if (!Array.isArray(data)) continue;
    const templates = data as Template[];
    const template = templates.find((row) => row.id === message.template_id);
    if (!template) continue;
    if (template.last_task_id === message.task_id && template.last_task) {
      const lastTask = { ...template.last_task, ...patch };
      queryClient.setQueryData<Template[]>(
        queryKey,
        templates.map((row) => (row === template ? { ...row, last_task: lastTask } : row)),
      );
      reloadIfFetching(queryKey);
    } else if (template.last_task_id === null || message.task_id > template.last_task_id) reload(queryKey);
  }

  const active = queryClient.getQueryData<ActiveTask[]>(taskKeys.active);
  if (active) {
    if (active.some((task) => task.task_id === message.task_id)) {
      queryClient.setQueryData<ActiveTask[]>(
        taskKeys.active,
        finished
          ? active.filter((task) => task.task_id !== message.task_id)
          : active.map((task) =>
              task.task_id === message.task_id ? { ...task, status: message.status, location: 'running' } : task,
            ),
      );
    } else if (!finished) reload(taskKeys.active);
  }
}

/** The websocket URL of this page's server, with log lines in batches. */
export function getLiveEventsUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws?batch=1`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The app's one websocket: parses messages with the contract's schemas, patches the query cache
 * on status changes, hands log lines to the views that asked for them, and reconnects 2 s after
 * it closed for as long as it is started (after a reconnect, task queries are refreshed because
 * updates may have been missed).
 */
export function createLiveConnection({
  url,
  queryClient,
  createSocket = (target) => new WebSocket(target),
  reconnectMs = LIVE_RECONNECT_MS,
}: LiveConnectionOptions): LiveConnection {
  const logListeners = new Map<number, Set<{ projectId: number; listener: (lines: LiveLogLine[]) => void }>>();
  const updateListeners = new Set<(message: TaskUpdateMessage) => void>();
  const reconnectListeners = new Set<() => void>();
  const pendingReloads = new Map<string, ReturnType<typeof setTimeout>>();
  let socket: SocketLike | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let started = false;
  let wasClosed = false;

  const reload = (queryKey: QueryKey) => {
    const id = JSON.stringify(queryKey);
    if (pendingReloads.has(id)) return;
    pendingReloads.set(
      id,
      setTimeout(() => {
        pendingReloads.delete(id);
        void queryClient.invalidateQueries({ queryKey, exact: true });
      }, RELOAD_COALESCE_MS),
    );
  };

  function onMessage(data: unknown): void {
    if (typeof data !== 'string') return;
    let raw: unknown;
    try {
      raw = JSON.parse(data);
    } catch {
      return;
    }
    if (!isRecord(raw)) return;
    if (raw.type === 'logs') {
      // Lines of tasks nobody is watching are dropped before the (costlier) validation.
      const listeners = typeof raw.task_id === 'number' ? logListeners.get(raw.task_id) : undefined;
      if (!listeners?.size) return;
      const message = TaskLogBatchMessage.safeParse(raw);
      if (!message.success) return;
      for (const entry of listeners)
        if (entry.projectId === message.data.project_id) entry.listener(message.data.lines);
    } else if (raw.type === 'update') {
      const message = TaskUpdateMessage.safeParse(raw);
      if (!message.success) return;
      applyTaskUpdate(queryClient, message.data, reload);
      for (const listener of updateListeners) listener(message.data);
    }
  }

  function connect(): void {
    reconnectTimer = null;
    const current = createSocket(url);
    socket = current;
    current.onopen = () => {
      if (!wasClosed) return;
      wasClosed = false;
      void queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[2] === 'tasks' || query.queryKey[0] === 'tasks',
      });
      for (const listener of reconnectListeners) listener();
    };
    current.onmessage = (event) => onMessage(event.data);
    current.onclose = () => {
      if (socket !== current) return;
      socket = null;
      wasClosed = true;
      if (started) reconnectTimer = setTimeout(connect, reconnectMs);
    };
    // An error is followed by a close, which schedules the reconnect.
    current.onerror = () => undefined;
  }

  return {
    start() {
      if (started) return;
      started = true;
      connect();
    },
    stop() {
      started = false;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      for (const timer of pendingReloads.values()) clearTimeout(timer);
      pendingReloads.clear();
      const current = socket;
      socket = null;
      current?.close(1000, 'Signed out');
    },
    subscribeTaskLog(projectId, taskId, listener) {
      const entry = { projectId, listener };
      let set = logListeners.get(taskId);
      if (!set) {
        set = new Set();
        logListeners.set(taskId, set);
      }
      set.add(entry);
      return () => {
        set.delete(entry);
        if (set.size === 0) logListeners.delete(taskId);
      };
    },
    subscribeUpdates(listener) {
      updateListeners.add(listener);
      return () => updateListeners.delete(listener);
    },
    subscribeReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
  };
}

const noop = () => undefined;

/** Stands in where no connection is provided (tests, screens rendered alone): nothing live arrives. */
const OFFLINE: LiveEvents = {
  subscribeTaskLog: () => noop,
  subscribeUpdates: () => noop,
  subscribeReconnect: () => noop,
};

const LiveEventsContext = createContext<LiveConnection | null>(null);

/** Holds the app's websocket connection; it opens only where useOpenLiveEvents says the user is signed in. */
export function LiveEventsProvider({ children, url }: { children: ReactNode; url?: string }) {
  const queryClient = useQueryClient();
  const [connection] = useState(() => createLiveConnection({ url: url ?? getLiveEventsUrl(), queryClient }));
  return createElement(LiveEventsContext.Provider, { value: connection }, children);
}

/** Keeps the websocket open while the calling component is mounted and `enabled` (the app shell, once signed in). */
export function useOpenLiveEvents(enabled: boolean): void {
  const connection = useContext(LiveEventsContext);
  useEffect(() => {
    if (!connection || !enabled) return undefined;
    connection.start();
    return () => connection.stop();
  }, [connection, enabled]);
}

export function useLiveEvents(): LiveEvents {
  return useContext(LiveEventsContext) ?? OFFLINE;
}
