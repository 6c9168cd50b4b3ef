import { describeFacts, describeLinkText, describeTitle, type Alert, type AlertChannel } from '../alert.ts';
import { escapeMarkdown, postJson } from '../http-post.ts';

/** DingTalk robot markdown message. */
function buildDingTalkPayload(alert: Alert) {
  const title = describeTitle(alert);
  const text = [
    `### ${escapeMarkdown(title)}`,
    '',
    ...describeFacts(alert).map((f) => `- **${escapeMarkdown(f.label)}:** ${escapeMarkdown(f.value)}`),
    '',
    `[${escapeMarkdown(describeLinkText(alert))}](${alert.task.url})`,
  ].join('\n');
  return { msgtype: 'markdown', markdown: { title, text } };
}

export function createDingTalkChannel(url: string): AlertChannel {
  return {
    name: 'dingtalk',
    async send(alert, signal) {
      // DingTalk reports refusals (bad keyword, bad signature, rate limit) as HTTP 200 with a non-zero errcode.
      const result = ((await postJson('dingtalk', url, buildDingTalkPayload(alert), signal)) ?? {}) as {
        errcode?: unknown;
        errmsg?: unknown;
      };
      if (typeof result.errcode === 'number' && result.errcode !== 0) {
        throw new Error(`dingtalk: errcode ${result.errcode} (${String(result.errmsg ?? '')})`);
      }
    },
  };
}
