import { describePlainText, describeTitle, formatStatus, type Alert, type AlertChannel } from '../alert.ts';
import { postJson } from '../http-post.ts';

/** The generic webhook body documented in docs/alerts.md; fields are only ever added. */
function buildWebhookPayload(alert: Alert) {
  return {
    event: alert.test
      ? 'test'
      : alert.approval
        ? 'workflow.waiting_approval'
        : alert.taskApproval
          ? 'task.waiting_approval'
          : alert.status === 'waiting_confirmation'
            ? 'task.waiting_confirmation'
            : 'task.finished',
    title: describeTitle(alert),
    text: describePlainText(alert),
    project: { id: alert.project.id, name: alert.project.name },
    // A test alert stands for no template and no task, an approval alert for a workflow run.
    template: alert.test || alert.approval ? null : { id: alert.template.id, name: alert.template.name },
    task:
      alert.test || alert.approval
        ? null
        : {
            id: alert.task.id,
            status: alert.taskApproval ? 'waiting_approval' : alert.status,
            status_text: formatStatus(alert.status),
            message: alert.task.message,
            version: alert.task.version,
            author: alert.task.author,
            start: alert.task.start,
            end: alert.task.end,
            duration_seconds: alert.task.durationSeconds,
            url: alert.task.url,
            ...(alert.taskApproval
              ? { required_approvals: alert.taskApproval.required, due: alert.taskApproval.due }
              : {}),
          },
    workflow_run: alert.approval
      ? {
          id: alert.approval.runId,
          workflow: alert.approval.workflow,
          step: alert.approval.step,
          status: 'waiting_approval',
          required_approvals: alert.approval.required,
          due: alert.approval.due,
          started_by: alert.task.author,
          url: alert.task.url,
        }
      : null,
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
