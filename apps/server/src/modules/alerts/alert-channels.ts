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

type UrlSetting =
  | 'slack_url'
  | 'microsoft_teams_url'
  | 'telegram_api_url'
  | 'rocketchat_url'
  | 'dingtalk_url'
  | 'gotify_url'
  | 'alert_webhook_url';

/**
 * Fails at start-up, not at the first failed task, when a switched-on channel misses a setting or
 * names an address no request can go to. Messages name the setting, never its value: URLs carry tokens.
 */
function requireSettings(config: Config, channel: string, keys: (keyof Config)[], urls: UrlSetting[] = []): void {
  const missing = keys.filter((key) => !config[key]);
  if (missing.length > 0)
    throw new Error(
      `Invalid configuration: ${channel} alerts are on but ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set`,
    );
  for (const key of urls) {
    const protocol = URL.canParse(config[key]) ? new URL(config[key]).protocol : '';
    if (protocol !== 'http:' && protocol !== 'https:')
      throw new Error(`Invalid configuration: ${key} must be an http:// or https:// URL`);
  }
}

/** The channels the server is configured for, in a stable order. */
export function createAlertChannels(
  config: Config,
  listRecipients: (projectId: number) => Promise<AlertRecipient[]>,
): AlertChannel[] {
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
    requireSettings(config, 'slack', ['slack_url'], ['slack_url']);
    channels.push(createSlackChannel(config.slack_url));
  }
  if (config.microsoft_teams_alert) {
    requireSettings(config, 'microsoft_teams', ['microsoft_teams_url'], ['microsoft_teams_url']);
    channels.push(createTeamsChannel(config.microsoft_teams_url));
  }
  if (config.telegram_alert) {
    requireSettings(config, 'telegram', ['telegram_token', 'telegram_api_url'], ['telegram_api_url']);
    channels.push(
      createTelegramChannel({
        apiUrl: config.telegram_api_url,
        token: config.telegram_token,
        chat: config.telegram_chat,
      }),
    );
  }
  if (config.rocketchat_alert) {
    requireSettings(config, 'rocketchat', ['rocketchat_url'], ['rocketchat_url']);
    channels.push(createRocketChatChannel(config.rocketchat_url));
  }
  if (config.dingtalk_alert) {
    requireSettings(config, 'dingtalk', ['dingtalk_url'], ['dingtalk_url']);
    channels.push(createDingTalkChannel(config.dingtalk_url));
  }
  if (config.gotify_alert) {
    requireSettings(config, 'gotify', ['gotify_url', 'gotify_token'], ['gotify_url']);
    channels.push(createGotifyChannel({ url: config.gotify_url, token: config.gotify_token }));
  }
  if (config.alert_webhook_url) {
    requireSettings(config, 'webhook', [], ['alert_webhook_url']);
    channels.push(createWebhookChannel(config.alert_webhook_url));
  }
  return channels;
}
