import { describeFacts, describeLinkText, describeTitle, type Alert, type AlertChannel } from '../alert.ts';
import { postJson } from '../http-post.ts';

const PRIORITIES = { success: 4, waiting_confirmation: 6, error: 8 } as const;

/** Gotify message with markdown content and a click-through to the task. */
function buildGotifyPayload(alert: Alert) {
  const lines = [
    ...describeFacts(alert).map((f) => `**${f.label}:** ${f.value}  `),
    '',
    `[${describeLinkText(alert)}](${alert.task.url})`,
  ];
  return {
    title: describeTitle(alert),
    message: lines.join('\n'),
    priority: PRIORITIES[alert.status],
    extras: {
      'client::display': { contentType: 'text/markdown' },
      'client::notification': { click: { url: alert.task.url } },
    },
  };
}

export function createGotifyChannel(settings: { url: string; token: string }): AlertChannel {
  const url = `${settings.url.replace(/\/+$/, '')}/message`;
  return {
    name: 'gotify',
    async send(alert, signal) {
      // The token travels in a header rather than the query string, so proxies do not log it.
      await postJson('gotify', url, buildGotifyPayload(alert), signal, { headers: { 'x-gotify-key': settings.token } });
    },
  };
}
