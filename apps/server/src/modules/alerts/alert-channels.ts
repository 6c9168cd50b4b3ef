import type { Config } from '../../config.ts';
import type { AlertChannel } from './alert.ts';
import type { AlertRecipient } from './alerts.repository.ts';
import { createDingTalkChannel } from './channels/dingtalk.ts';
import { createEmailChannel } from './channels/email.ts';
import { createGotifyChannel } from './channels/gotify.ts';
import { createTeamsChannel } from './channels/microsoft-teams.ts';
import { createRocketChatChannel } from './channels/rocketchat.ts';
import { createSlackChannel } from './channels/slack.ts';
import { createTelegramChannel } from './channels/telegram.ts';
import { createWebhookChannel } from './channels/webhook.ts';

/** Fails at start-up, not at the first failed task, when a switched-on channel misses a setting. */
function requireSettings(config: Config, channel: string, keys: (keyof Config)[]): void {
  const missing = keys.filter((key) => !config[key]);
  if (missing.length > 0) throw new Error(`Invalid configuration: ${channel} alerts are on but ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set`);
}

/** The channels the server is configured for, in a stable order. */
export function createAlertChannels(config: Config, listRecipients: (projectId: number) => Promise<AlertRecipient[]>): AlertChannel[] {
  const channels: AlertChannel[] = [];
  if (config.email_alert) {
    requireSettings(config, 'email', ['email_host', 'email_sender']);
    channels.push(
      createEmailChannel(
        {
          host: config.email_host,
          port: config.email_port,
          sender: config.email_sender,
          secure: config.email_secure,
          username: config.email_username,
          password: config.email_password,
          tls: config.email_tls,
          tlsMinVersion: config.email_tls_min_version,
          timeoutMs: config.alert_timeout_seconds * 1000,
        },
        listRecipients,
      ),
    );
  }
  if (config.slack_alert) {
    requireSettings(config, 'slack', ['slack_url']);
    channels.push(createSlackChannel(config.slack_url));
  }
  if (config.microsoft_teams_alert) {
    requireSettings(config, 'microsoft_teams', ['microsoft_teams_url']);
    channels.push(createTeamsChannel(config.microsoft_teams_url));
  }
  if (config.telegram_alert) {
    requireSettings(config, 'telegram', ['telegram_token', 'telegram_api_url']);
    channels.push(createTelegramChannel({ apiUrl: config.telegram_api_url, token: config.telegram_token, chat: config.telegram_chat }));
  }
  if (config.rocketchat_alert) {
    requireSettings(config, 'rocketchat', ['rocketchat_url']);
    channels.push(createRocketChatChannel(config.rocketchat_url));
  }
  if (config.dingtalk_alert) {
    requireSettings(config, 'dingtalk', ['dingtalk_url']);
    channels.push(createDingTalkChannel(config.dingtalk_url));
  }
  if (config.gotify_alert) {
    requireSettings(config, 'gotify', ['gotify_url', 'gotify_token']);
    channels.push(createGotifyChannel({ url: config.gotify_url, token: config.gotify_token }));
  }
  if (config.alert_webhook_url) channels.push(createWebhookChannel(config.alert_webhook_url));
  return channels;
}
