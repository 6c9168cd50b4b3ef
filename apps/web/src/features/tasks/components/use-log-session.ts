import { useEffect, useRef, useState } from 'react';
import { isTaskFinished, type TaskWithTemplate } from '@gantry/contract';
import { useLiveEvents } from '../../../lib/live-events.ts';
import { fetchTaskOutput } from '../api/tasks-queries.ts';
import { TaskLogSession } from '../log/log-session.ts';

/**
 * How long the log of an unfinished task may stay without live lines before the dialog reads its tail
 * from the API, and how often it reads the task's status meanwhile: a task running on another server
 * while Redis is away sends no live events here, and the dialog falls back to polling.
 */
export const LOG_POLL_MS = 3000;

/** Keeps the log of one task loaded and fed by the websocket (or, when it stays quiet, by polling) while the dialog shows it. */
export function useLogSession(
  projectId: number,
  taskId: number,
  task: TaskWithTemplate | undefined,
): TaskLogSession | null {
  const live = useLiveEvents();
  const [session, setSession] = useState<TaskLogSession | null>(null);
  const lastLiveAt = useRef(0);

  useEffect(() => {
    const created = new TaskLogSession({
      fetchLines: (offset, limit, signal) => fetchTaskOutput(projectId, taskId, offset, limit, signal),
    });
    setSession(created);
    lastLiveAt.current = Date.now();
    const unsubscribeLines = live.subscribeTaskLog(projectId, taskId, (lines) => {
      lastLiveAt.current = Date.now();
      created.appendLive(lines);
    });
    const unsubscribeReconnect = live.subscribeReconnect(() => void created.syncTail());
    void created.start();
    return () => {
      unsubscribeLines();
      unsubscribeReconnect();
      created.dispose();
    };
  }, [live, projectId, taskId]);

  // Lines written just before the end may reach the store after the socket; read them once the task is over.
  const done = task ? isTaskFinished(task.status) : undefined;
  const wasRunning = useRef(false);
  useEffect(() => {
    if (done === false) wasRunning.current = true;
    if (done && wasRunning.current && session) {
      wasRunning.current = false;
      void session.syncTail();
    }
  }, [done, session]);

  useEffect(() => {
    if (done !== false || !session) return;
    const timer = setInterval(() => {
      if (Date.now() - lastLiveAt.current >= LOG_POLL_MS) void session.syncTail();
    }, LOG_POLL_MS);
    return () => clearInterval(timer);
  }, [done, session]);

  return session;
}
