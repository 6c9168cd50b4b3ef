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

/** The settings that hold an address a channel posts to. */
const URL_SETTINGS = [
  'slack_url',
  'microsoft_teams_url',
  'telegram_api_url',
  'rocketchat_url',
  'dingtalk_url',
  'gotify_url',
  'alert_webhook_url',
] as const;
type UrlSetting = (typeof URL_SETTINGS)[number];
const isUrlSetting = (key: keyof Config): key is UrlSetting => (URL_SETTINGS as readonly string[]).includes(key);

/**
 * Fails at start-up, not at the first failed task, when a switched-on channel misses a setting or
 * names an address no request can go to. Messages name the setting, never its value: URLs carry tokens.
 */
function requireSettings(config: Config, channel: string, keys: (keyof Config)[]): void {
  const missing = keys.filter((key) => !config[key]);
  if (missing.length > 0)
    throw new Error(
      `Invalid configuration: ${channel} alerts are on but ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set`,
    );
  for (const key of keys.filter(isUrlSetting)) {
    const protocol = URL.canParse(config[key]) ? new URL(config[key]).protocol : '';
    if (protocol !== 'http:' && protocol !== 'https:')
      throw new Error(`Invalid configuration: ${key} must be an http:// or https:// URL`);
  }
}

interface ChannelSetup {
  name: string;
  /** The setting that switches the channel on. */
  on: keyof Config;
  /** The settings it cannot do without; those holding an address must be http(s) URLs. */
  settings: (keyof Config)[];
  create(config: Config, listRecipients: (projectId: number) => Promise<AlertRecipient[]>): AlertChannel;
}

const channel = (
  name: string,
  on: keyof Config,
  settings: (keyof Config)[],
  create: ChannelSetup['create'],
): ChannelSetup => ({ name, on, settings, create });

/** Every channel Gantry can alert through, in the order they are sent to. */
const CHANNELS: ChannelSetup[] = [
  channel('email', 'email_alert', ['email_host', 'email_sender'], (config, listRecipients) =>
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
  ),
  channel('slack', 'slack_alert', ['slack_url'], (config) => createSlackChannel(config.slack_url)),
  channel('microsoft_teams', 'microsoft_teams_alert', ['microsoft_teams_url'], (config) =>
    createTeamsChannel(config.microsoft_teams_url),
  ),
  channel('telegram', 'telegram_alert', ['telegram_token', 'telegram_api_url'], (config) =>
    createTelegramChannel({
      apiUrl: config.telegram_api_url,
      token: config.telegram_token,
      chat: config.telegram_chat,
    }),
  ),
  channel('rocketchat', 'rocketchat_alert', ['rocketchat_url'], (config) =>
    createRocketChatChannel(config.rocketchat_url),
  ),
  channel('dingtalk', 'dingtalk_alert', ['dingtalk_url'], (config) => createDingTalkChannel(config.dingtalk_url)),
  channel('gotify', 'gotify_alert', ['gotify_url', 'gotify_token'], (config) =>
    createGotifyChannel({ url: config.gotify_url, token: config.gotify_token }),
  ),
  // The address is the switch.
  channel('webhook', 'alert_webhook_url', ['alert_webhook_url'], (config) =>
    createWebhookChannel(config.alert_webhook_url),
  ),
];

/** The channels the server is configured for, in a stable order. */
export function createAlertChannels(
  config: Config,
  listRecipients: (projectId: number) => Promise<AlertRecipient[]>,
): AlertChannel[] {
  return CHANNELS.filter((setup) => config[setup.on]).map((setup) => {
    requireSettings(config, setup.name, setup.settings);
    return setup.create(config, listRecipients);
  });
}
