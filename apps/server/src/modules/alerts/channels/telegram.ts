import { describeFacts, describeLinkText, describeTitle, type Alert, type AlertChannel } from '../alert.ts';
import { escapeMarkup, postJson } from '../http-post.ts';

/** Bot API sendMessage body in HTML parse mode; the project's alert_chat wins over the server's chat. */
export function buildTelegramPayload(alert: Alert, defaultChat: string) {
  const lines = [
    `<b>${escapeMarkup(describeTitle(alert))}</b>`,
    ...describeFacts(alert).map((f) => `<b>${escapeMarkup(f.label)}:</b> ${escapeMarkup(f.value)}`),
    `<a href="${escapeMarkup(alert.task.url)}">${escapeMarkup(describeLinkText(alert))}</a>`,
  ];
  return {
    chat_id: alert.project.alertChat || defaultChat,
    parse_mode: 'HTML',
    disable_web_page_preview: true,
    text: lines.join('\n'),
  };
}

export function createTelegramChannel(settings: { apiUrl: string; token: string; chat: string }): AlertChannel {
  const url = `${settings.apiUrl.replace(/\/+$/, '')}/bot${settings.token}/sendMessage`;
  return {
    name: 'telegram',
    async send(alert, signal) {
      await postJson('telegram', url, buildTelegramPayload(alert, settings.chat), signal);
    },
  };
}
