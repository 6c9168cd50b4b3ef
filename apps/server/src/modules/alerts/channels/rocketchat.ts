import { STATUS_COLORS, describeFacts, describeTitle, type Alert, type AlertChannel } from '../alert.ts';
import { escapeMarkdown, postJson } from '../http-post.ts';

/** Rocket.Chat incoming-webhook body: message text plus an attachment linking to the task. */
function buildRocketChatPayload(alert: Alert) {
  const title = escapeMarkdown(describeTitle(alert));
  return {
    alias: 'Gantry',
    text: title,
    attachments: [
      {
        title,
        title_link: alert.task.url,
        color: STATUS_COLORS[alert.status],
        fields: describeFacts(alert).map((f) => ({
          title: escapeMarkdown(f.label),
          value: escapeMarkdown(f.value),
          short: f.label !== 'Message',
        })),
      },
    ],
  };
}

export function createRocketChatChannel(url: string): AlertChannel {
  return {
    name: 'rocketchat',
    async send(alert, signal) {
      await postJson('rocketchat', url, buildRocketChatPayload(alert), signal);
    },
  };
}
