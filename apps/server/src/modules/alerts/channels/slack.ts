import { STATUS_COLORS, describeFacts, describeTitle, type Alert, type AlertChannel } from '../alert.ts';
import { escapeMarkup, postJson } from '../http-post.ts';

/** Slack incoming-webhook body: a coloured attachment with the facts as short fields. */
function buildSlackPayload(alert: Alert) {
  const title = describeTitle(alert);
  return {
    text: escapeMarkup(title),
    attachments: [
      {
        color: STATUS_COLORS[alert.status],
        fallback: title,
        title: escapeMarkup(title),
        title_link: alert.task.url,
        fields: describeFacts(alert).map((f) => ({
          title: f.label,
          value: escapeMarkup(f.value),
          short: f.label !== 'Message',
        })),
        footer: 'Gantry',
      },
    ],
  };
}

export function createSlackChannel(url: string): AlertChannel {
  return {
    name: 'slack',
    async send(alert, signal) {
      await postJson('slack', url, buildSlackPayload(alert), signal);
    },
  };
}
