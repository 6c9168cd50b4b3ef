import { randomInt } from 'node:crypto';
import { MIN_PASSWORD_LENGTH } from '@gantry/contract';
import type { Config } from './config.ts';
import { ConfigError } from './config.ts';
import type { UsersService } from './modules/users/users.service.ts';

const PASSWORD_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function generatePassword(length = 16): string {
  let password = '';
  for (let i = 0; i < length; i++) password += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return password;
}

export interface BootstrapResult {
  login: string;
  /** Present only when Gantry made the password up; it is shown once and never stored in clear. */
  generatedPassword?: string;
}

/**
 * Makes sure there is a first administrator: the one named in configuration when it does not
 * exist yet, or a default "admin" with a random password when the store has no users at all.
 */
export async function ensureFirstAdmin(config: Config, users: UsersService): Promise<BootstrapResult | undefined> {
  const configuredLogin = config.admin_login?.trim().toLowerCase();
  if (configuredLogin) {
    if (await users.findByLogin(configuredLogin)) return undefined;
  } else if ((await users.count()) > 0) {
    return undefined;
  }
  const login = configuredLogin || 'admin';
  // An empty setting is no setting. Checked only when the admin is made: one configured long ago still starts.
  const configuredPassword = config.admin_password || undefined;
  if (configuredPassword !== undefined && configuredPassword.length < MIN_PASSWORD_LENGTH)
    throw new ConfigError(`admin_password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  const generatedPassword = configuredPassword ? undefined : generatePassword();
  await users.create(undefined, {
    username: login,
    name: config.admin_name ?? 'Administrator',
    email: (config.admin_email ?? `${login}@localhost`).toLowerCase(),
    password: configuredPassword ?? generatedPassword,
    admin: true,
  });
  return { login, ...(generatedPassword ? { generatedPassword } : {}) };
}
