import type { AlertChannelDelivery, AlertTestResult } from '@gantry/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import { badRequest } from '../../errors.ts';
import type { TaskRow } from '../tasks/tasks.table.ts';
import {
  isAlertStatus,
  type Alert,
  type AlertChannel,
  type AlertStatus,
  type ApprovalWaiting,
  type OwedAlert,
} from './alert.ts';
import type { AlertsRepository } from './alerts.repository.ts';

export interface AlertDispatcherDeps {
  channels: AlertChannel[];
  alerts: AlertsRepository;
  webHost: string;
  timeoutMs: number;
  clock: Clock;
  logger: FastifyBaseLogger;
}

/** Semaphore's task link, so links in old alerts and new ones open the same screen. */
function buildTaskUrl(origin: string, task: TaskRow): string {
  return `${origin}/project/${task.project_id}/templates/${task.template_id}?t=${task.id}`;
}

function measureSeconds(start: string | null, end: string | null, now: Date): number | null {
  if (!start) return null;
  const until = end ? Date.parse(end) : now.getTime();
  return Math.max(0, Math.round((until - Date.parse(start)) / 1000));
}

/** The parts of an alert that is about no task (a workflow's approval, a test): who it names and where it links. */
function aboutNoTask(
  project: { id: number; name: string; alert_chat: string | null },
  author: string,
  url: string,
): Pick<Alert, 'project' | 'template' | 'task'> {
  return {
    project: { id: project.id, name: project.name, alertChat: project.alert_chat },
    template: { id: 0, name: '' },
    task: { id: 0, message: '', version: null, author, start: null, end: null, durationSeconds: null, url },
  };
}

/**
 * Tells the configured channels about tasks that finished or wait for confirmation. Work runs in
 * the background: `notify` returns at once, every channel has the same deadline, and a failing
 * channel is logged without touching the task or the other channels.
 */
export function createAlertDispatcher(deps: AlertDispatcherDeps) {
  const pending = new Set<Promise<void>>();
  const origin = deps.webHost.replace(/\/+$/, '');
  /** Without channels there is nothing to read or send: a finished task costs no query then. */
  const hasChannels = deps.channels.length > 0;

  async function buildAlert(task: TaskRow, status: AlertStatus): Promise<Alert | undefined> {
    const subject = await deps.alerts.findSubject(task.project_id, task.template_id);
    if (!subject || subject.project_alert !== 1) return undefined;
    if (status === 'success' && subject.suppress_success_alerts === 1) return undefined;
    const author = task.user_id === null ? undefined : await deps.alerts.findAuthorName(task.user_id);
    return {
      status,
      project: { id: task.project_id, name: subject.project_name, alertChat: subject.alert_chat },
      template: { id: task.template_id, name: subject.template_name },
      task: {
        id: task.id,
        message: task.message,
        version: task.version,
        author: author ?? '—',
        start: task.start,
        end: task.end,
        durationSeconds: measureSeconds(task.start, task.end, deps.clock.now()),
        url: buildTaskUrl(origin, task),
      },
    };
  }

  /** Sends to every channel at once under one deadline; failures are logged and reported, never thrown. */
  async function sendToAll(alert: Alert, taskId: number | null): Promise<AlertChannelDelivery[]> {
    const signal = AbortSignal.timeout(deps.timeoutMs);
    const results = await Promise.allSettled(deps.channels.map((channel) => channel.send(alert, signal)));
    return results.map((result, index) => {
      const name = deps.channels[index]?.name ?? '';
      if (result.status === 'fulfilled') return { name, delivered: true, error: null };
      const reason: unknown = result.reason;
      const error = reason instanceof Error ? reason.message : String(reason);
      deps.logger.warn(
        { channel: name, taskId, projectId: alert.project.id, reason: error },
        'task alert not delivered',
      );
      return { name, delivered: false, error };
    });
  }

  async function deliver(task: TaskRow): Promise<void> {
    if (!isAlertStatus(task.status)) return;
    const alert = await buildAlert(task, task.status);
    if (alert) await sendToAll(alert, task.id);
  }

  function inBackground(where: Record<string, unknown>, work: () => Promise<void>): void {
    const running = work().catch((error: unknown) => deps.logger.error({ err: error, ...where }, 'alert failed'));
    pending.add(running);
    void running.finally(() => pending.delete(running));
  }

  /**
   * An approval alert owed in the store: claimed, sent, then marked sent. Without channels nothing is sent, but
   * the alert is settled all the same, so sweeps do not find it again. A failure leaves it owed, for a later sweep.
   */
  function sendOwed(owed: OwedAlert, where: Record<string, unknown>, send: () => Promise<void>): void {
    inBackground(where, async () => {
      if (!(await owed.claim())) return;
      if (hasChannels) await send();
      await owed.sent();
    });
  }

  return {
    /** Starts alerting about a finished task; never throws, never waits. */
    notify(task: TaskRow): void {
      if (hasChannels && isAlertStatus(task.status)) inBackground({ taskId: task.id }, () => deliver(task));
    },

    /**
     * Starts alerting that a task waits for confirmation. The row is read afresh (the engine holds only
     * part of it), but the alert keeps saying "waiting" should someone confirm in the meantime.
     */
    notifyWaiting(taskId: number): void {
      if (!hasChannels) return;
      inBackground({ taskId }, async () => {
        const task = await deps.alerts.findTask(taskId);
        if (task) await deliver({ ...task, status: 'waiting_confirmation' });
      });
    },

    /**
     * Starts alerting that a task waits for its template's approvers, with a link to the task, once `owed`
     * is claimed; never throws.
     */
    notifyTaskApproval(task: TaskRow, gate: { required: number }, owed: OwedAlert): void {
      sendOwed(owed, { taskId: task.id }, async () => {
        // The alert is about approving, not about the task's result: sent whatever the success setting.
        const alert = await buildAlert(task, 'waiting_confirmation');
        if (alert)
          await sendToAll(
            { ...alert, taskApproval: { required: gate.required, due: task.approval_due ?? '' } },
            task.id,
          );
      });
    },

    /** Starts alerting that an approval step of a workflow run waits, with a link to the run, once `owed` is claimed. */
    notifyApproval(waiting: ApprovalWaiting, owed: OwedAlert): void {
      sendOwed(owed, { projectId: waiting.projectId, runId: waiting.runId }, async () => {
        const project = await deps.alerts.findProject(waiting.projectId);
        if (project?.alert !== 1) return;
        const author = waiting.userId === null ? undefined : await deps.alerts.findAuthorName(waiting.userId);
        const url = `${origin}/project/${waiting.projectId}/workflows/${waiting.workflow.id}/runs/${waiting.runId}`;
        await sendToAll(
          {
            status: 'waiting_confirmation',
            approval: {
              workflow: waiting.workflow,
              runId: waiting.runId,
              step: waiting.step,
              required: waiting.required,
              due: waiting.due,
            },
            ...aboutNoTask({ id: waiting.projectId, ...project }, author ?? '—', url),
          },
          null,
        );
      });
    },

    /**
     * Sends a test alert for the project to every channel and reports each one's outcome. It goes
     * out even while the project's alerts are off, so the settings can be checked before switching on.
     */
    async sendTest(
      project: { id: number; name: string; alert_chat: string | null },
      senderName: string,
    ): Promise<AlertTestResult> {
      if (deps.channels.length === 0) throw badRequest('No alert channel is configured on this server');
      const alert: Alert = {
        status: 'success',
        test: true,
        ...aboutNoTask(project, senderName, `${origin}/project/${project.id}/settings`),
      };
      return { channels: await sendToAll(alert, null) };
    },

    /** Waits for alerts under way (shutdown, tests); bounded by the channel deadline. */
    async drain(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

export type AlertDispatcher = ReturnType<typeof createAlertDispatcher>;
