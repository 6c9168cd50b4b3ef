import { describeFacts, describeLinkText, describeTitle, type Alert, type AlertChannel } from '../alert.ts';
import { escapeMarkdown, postJson } from '../http-post.ts';

const CARD_STYLES = { success: 'good', error: 'attention', waiting_confirmation: 'warning' } as const;

/** A message carrying an Adaptive Card, the shape Teams workflow webhooks accept. */
function buildTeamsPayload(alert: Alert) {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'TextBlock',
              text: escapeMarkdown(describeTitle(alert)),
              weight: 'Bolder',
              size: 'Medium',
              color: CARD_STYLES[alert.status],
              wrap: true,
            },
            {
              type: 'FactSet',
              facts: describeFacts(alert).map((f) => ({
                title: escapeMarkdown(f.label),
                value: escapeMarkdown(f.value),
              })),
            },
          ],
          actions: [{ type: 'Action.OpenUrl', title: describeLinkText(alert), url: alert.task.url }],
        },
      },
    ],
  };
}

export function createTeamsChannel(url: string): AlertChannel {
  return {
    name: 'microsoft_teams',
    async send(alert, signal) {
      // Workflow webhooks answer 202 Accepted, the older connectors 200.
      await postJson('microsoft_teams', url, buildTeamsPayload(alert), signal, {
        accept: (status) => status === 200 || status === 202,
      });
    },
  };
}
