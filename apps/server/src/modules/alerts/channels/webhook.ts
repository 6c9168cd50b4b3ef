import { describePlainText, describeTitle, formatStatus, type Alert, type AlertChannel } from '../alert.ts';
import { postJson } from '../http-post.ts';

/** The generic webhook body documented in docs/alerts.md; fields are only ever added. */
function buildWebhookPayload(alert: Alert) {
  return {
    event: alert.test
      ? 'test'
      : alert.status === 'waiting_confirmation'
        ? 'task.waiting_confirmation'
        : 'task.finished',
    title: describeTitle(alert),
    text: describePlainText(alert),
    project: { id: alert.project.id, name: alert.project.name },
    // A test alert stands for no template and no task.
    template: alert.test ? null : { id: alert.template.id, name: alert.template.name },
    task: alert.test
      ? null
      : {
          id: alert.task.id,
          status: alert.status,
          status_text: formatStatus(alert.status),
          message: alert.task.message,
          version: alert.task.version,
          author: alert.task.author,
          start: alert.task.start,
          end: alert.task.end,
          duration_seconds: alert.task.durationSeconds,
          url: alert.task.url,
        },
  };
}

export function createWebhookChannel(url: string): AlertChannel {
  return {
    name: 'webhook',
    async send(alert, signal) {
      await postJson('webhook', url, buildWebhookPayload(alert), signal);
    },
  };
}
