import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Id, PREMIUM_FEATURES, ProjectRoleSlug } from '@gantry/contract';
import { SERVER_PACKAGE_ROOT } from './package-root.ts';

/**
 * The only module that reads process.env. A JSON file named by GANTRY_CONFIG may set the same keys
 * (snake_case, without the GANTRY_ prefix); environment variables win over the file.
 */

const bool = z
  .union([z.boolean(), z.string()])
  .transform((v) => (typeof v === 'boolean' ? v : ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase())));
const int = z.coerce.number().int().min(0);

/** Grants a project role to members of an identity-provider group (a Gantry extension). */
const ProjectRoleGrant = z.object({ project_id: Id, role: ProjectRoleSlug });
const ProjectRoleGrants = z
  .union([ProjectRoleGrant, z.array(ProjectRoleGrant)])
  .transform((g) => (Array.isArray(g) ? g : [g]));

const OidcProviderConfig = z.object({
  display_name: z.string().optional(),
  color: z.string().optional(),
  icon: z.string().optional(),
  provider_url: z.string().optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  redirect_url: z.string().optional(),
  scopes: z.array(z.string()).optional(),
  username_claim: z.string().optional(),
  name_claim: z.string().optional(),
  email_claim: z.string().optional(),
  order: z.number().optional(),
  // Semaphore's explicit endpoints, for providers without discovery.
  endpoint: z
    .object({
      issuer_url: z.string().optional(),
      auth_url: z.string().optional(),
      token_url: z.string().optional(),
      userinfo_url: z.string().optional(),
      jwks_url: z.string().optional(),
      algorithms: z.array(z.string()).optional(),
    })
    .optional(),
  groups_claim: z.string().optional(),
  admin_groups: z.array(z.string()).optional(),
  project_roles: z.record(z.string(), ProjectRoleGrants).optional(),
});
export type OidcProviderConfig = z.infer<typeof OidcProviderConfig>;

const LdapMappings = z.object({
  dn: z.string().default('dn'),
  mail: z.string().default('mail'),
  uid: z.string().default('uid'),
  cn: z.string().default('cn'),
});

const ConfigSchema = z.object({
  port: int.default(3000),
  host: z.string().default('0.0.0.0'),
  data_dir: z.string().default('./data'),
  db_dialect: z.enum(['sqlite', 'postgres', 'mysql']).default('sqlite'),
  db_url: z.string().optional(),
  db_max_connections: z.coerce.number().int().min(1).max(1000).default(10),
  admin_login: z.string().optional(),
  admin_password: z.string().optional(),
  admin_email: z.string().optional(),
  admin_name: z.string().optional(),
  web_host: z.string().default(''),
  web_dist_dir: z.string().optional(),
  use_remote_runner: bool.default(false),
  non_admin_can_create_project: bool.default(false),
  password_login_disabled: bool.default(false),
  /** Semaphore's spelling of password_login_disabled, so existing config files carry over. */
  password_login_disable: bool.default(false),
  ldap_enable: bool.default(false),
  ldap_server: z.string().default(''),
  ldap_needtls: bool.default(false),
  ldap_starttls: bool.default(false),
  ldap_tls_ca_file: z.string().optional(),
  ldap_tls_skip_verify: bool.default(false),
  ldap_binddn: z.string().default(''),
  ldap_bindpassword: z.string().default(''),
  ldap_searchdn: z.string().default(''),
  ldap_searchfilter: z.string().default('(uid=%s)'),
  ldap_mappings: LdapMappings.default({ dn: 'dn', mail: 'mail', uid: 'uid', cn: 'cn' }),
  ldap_groups_attribute: z.string().default('memberOf'),
  ldap_admin_groups: z.array(z.string()).optional(),
  ldap_project_roles: z.record(z.string(), ProjectRoleGrants).optional(),
  demo_mode: bool.default(false),
  premium_features: z.array(z.enum(PREMIUM_FEATURES)).default([...PREMIUM_FEATURES]),
  access_key_encryption: z.string().optional(),
  session_idle_minutes: int.default(7 * 24 * 60),
  session_max_age_minutes: int.default(30 * 24 * 60),
  login_max_failures: int.default(10),
  login_failure_window_seconds: int.default(15 * 60),
  trust_proxy: bool.default(false),
  max_body_bytes: int.default(10 * 1024 * 1024),
  schedule_timezone: z.string().default('UTC'),
  log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  oidc_providers: z.record(z.string(), OidcProviderConfig).default({}),
  max_parallel_tasks: int.default(0),
  /** Bearer token a Prometheus scraper sends to GET /api/metrics; administrators may read it without. */
  metrics_token: z.string().default(''),
  /** Redis for nodes that share one PostgreSQL or MySQL store: live events reach every node's clients. */
  redis_url: z.string().default(''),
  /** Lets `gantry runner register` create runners; registration is off while empty. */
  runner_registration_token: z.string().default(''),
  /** A runner silent this long is lost: its queued tasks go to others, its started tasks fail. */
  runner_offline_seconds: z.coerce.number().int().min(2).default(60),
  task_timeout_minutes: int.default(0),
  task_kill_grace_seconds: int.default(10),
  /** History retention (task-retention.ts): finished tasks older than this many days go; 0 keeps them. */
  task_retention_days: int.default(0),
  /** Semaphore's name: finished tasks kept per template, the newest first; 0 keeps all. */
  max_tasks_per_template: int.default(0),
  // Task alerts (docs/alerts.md); key names follow Semaphore's where it has them.
  alert_timeout_seconds: int.default(10),
  email_alert: bool.default(false),
  email_sender: z.string().default(''),
  email_host: z.string().default(''),
  email_port: int.default(25),
  email_username: z.string().default(''),
  email_password: z.string().default(''),
  email_secure: bool.default(false),
  email_tls: bool.default(false),
  email_tls_min_version: z.enum(['1.0', '1.1', '1.2', '1.3']).default('1.2'),
  telegram_alert: bool.default(false),
  telegram_chat: z.string().default(''),
  telegram_token: z.string().default(''),
  telegram_api_url: z.string().default('https://api.telegram.org'),
  slack_alert: bool.default(false),
  slack_url: z.string().default(''),
  rocketchat_alert: bool.default(false),
  rocketchat_url: z.string().default(''),
  microsoft_teams_alert: bool.default(false),
  microsoft_teams_url: z.string().default(''),
  dingtalk_alert: bool.default(false),
  dingtalk_url: z.string().default(''),
  gotify_alert: bool.default(false),
  gotify_url: z.string().default(''),
  gotify_token: z.string().default(''),
  alert_webhook_url: z.string().default(''),
  /** TOTP second factor: offered when enabled; `totp_required` makes every user enrol at sign-in. */
  totp_enabled: bool.default(false),
  totp_allow_recovery: bool.default(true),
  totp_required: bool.default(false),
});

export type ConfigKey = keyof typeof ConfigSchema.shape;
/** Every setting's name, in the schema's order. */
export const CONFIG_KEYS = Object.keys(ConfigSchema.shape) as ConfigKey[];

/** A setting's default as the configuration reference shows it. */
export function describeDefault(key: ConfigKey): string {
  const value: unknown = ConfigSchema.shape[key].safeParse(undefined).data;
  if (value === undefined) return '—';
  if (value === '') return 'empty';
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

export type Config = z.infer<typeof ConfigSchema> & {
  db_url: string;
  data_dir: string;
  web_dist_dir: string;
  /** The environment every task process starts from: an allowlist of the server's, never all of it. */
  task_base_env: Record<string, string>;
};

/** Server variables a task may see; everything else (credentials, tokens) stays with the server. */
const TASK_ENV_ALLOWLIST = [
  'PATH',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
];
export type ConfigInput = z.input<typeof ConfigSchema>;

const ENV_PREFIX = 'GANTRY_';
/** Keys whose environment variable holds JSON (maps and lists). */
const JSON_KEYS = new Set([
  'oidc_providers',
  'ldap_mappings',
  'ldap_admin_groups',
  'ldap_project_roles',
  'premium_features',
]);

/** A configuration the server cannot start with; its message says what to fix, in one line. */
export class ConfigError extends Error {}

/** Names the variable whose JSON does not parse, so the operator knows which one to fix. */
function parseJsonVariable(name: string, value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new ConfigError(`Invalid configuration: ${name} must hold JSON`);
  }
}

/** GANTRY_ variables that are not server settings: the config file's name, the runner's and the tests' own, and what tasks carry. */
const OTHER_GANTRY_VARIABLES =
  /^GANTRY_(CONFIG|CHROMIUM|TASK_ID|TASK_MARK|TEST_[A-Z0-9_]+|RUNNER_(SERVER|TOKEN|TOKEN_FILE|WORK_DIR))$/;

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_v, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function nearest(name: string, candidates: string[]): string {
  let best = candidates[0] ?? '';
  for (const candidate of candidates) if (editDistance(name, candidate) < editDistance(name, best)) best = candidate;
  return best;
}

/** A typo must stop the start: silently ignored, `db_dialet` would put production data in a SQLite file. */
function refuseUnknownSettings(fileKeys: string[], env: NodeJS.ProcessEnv, file: string | undefined): void {
  const keys = Object.keys(ConfigSchema.shape);
  for (const key of fileKeys) {
    if (!keys.includes(key))
      throw new ConfigError(
        `Unknown setting "${key}" in ${file ?? 'the configuration file'}; did you mean "${nearest(key, keys)}"?`,
      );
  }
  const variables = keys.map((key) => ENV_PREFIX + key.toUpperCase());
  for (const name of Object.keys(env)) {
    if (!name.startsWith(ENV_PREFIX) || variables.includes(name) || OTHER_GANTRY_VARIABLES.test(name)) continue;
    throw new ConfigError(`Unknown environment variable ${name}; did you mean ${nearest(name, variables)}?`);
  }
}

function readEnvironment(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const value = env[ENV_PREFIX + key.toUpperCase()];
    if (value === undefined || value === '') continue;
    values[key] = JSON_KEYS.has(key) ? parseJsonVariable(ENV_PREFIX + key.toUpperCase(), value) : value;
  }
  return values;
}

function readConfigFile(file: string | undefined): Record<string, unknown> {
  if (!file) return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `Cannot read the configuration file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's message quotes the text around the fault, which may be a password.
    throw new ConfigError(`The configuration file ${file} is not valid JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`Configuration file ${file} must hold a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

function buildTaskBaseEnv(env: NodeJS.ProcessEnv, dataDir: string): Record<string, string> {
  const base: Record<string, string> = { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' };
  for (const name of TASK_ENV_ALLOWLIST) {
    const value = env[name];
    if (value) base[name] = value;
  }
  // Tools keep their caches (~/.ansible, ~/.terraform.d) under Gantry's data, not the server user's home.
  base.HOME = path.join(dataDir, 'home');
  return base;
}

/** The web UI: beside the server in a release package, in the web workspace's build in a checkout. */
const defaultWebDist = existsSync(path.join(SERVER_PACKAGE_ROOT, 'web', 'index.html'))
  ? path.join(SERVER_PACKAGE_ROOT, 'web')
  : path.resolve(SERVER_PACKAGE_ROOT, '../web/dist');

/** Builds a validated configuration from file, environment and explicit overrides (tests use the last). */
export function loadConfig(overrides: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const fromFile = readConfigFile(env.GANTRY_CONFIG);
  refuseUnknownSettings(Object.keys(fromFile), env, env.GANTRY_CONFIG);
  const merged = { ...fromFile, ...readEnvironment(env), ...overrides };
  const result = ConfigSchema.safeParse(merged);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const config = result.data;
  if (config.ldap_enable && !config.ldap_server)
    throw new ConfigError('Invalid configuration: ldap_server is required when ldap_enable is on');
  const dataDir = path.resolve(config.data_dir);
  return {
    ...config,
    data_dir: dataDir,
    password_login_disabled: config.password_login_disabled || config.password_login_disable,
    db_url: config.db_url ?? (config.db_dialect === 'sqlite' ? path.join(dataDir, 'gantry.sqlite') : ''),
    web_dist_dir: config.web_dist_dir ? path.resolve(config.web_dist_dir) : defaultWebDist,
    task_base_env: buildTaskBaseEnv(env, dataDir),
  };
}

/** Where the test suite finds its PostgreSQL and MySQL servers, and whether it runs under CI. */
export function readTestEnvironment(env: NodeJS.ProcessEnv = process.env) {
  return {
    ci: env.CI === 'true' || env.CI === '1',
    path: env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    postgresUrl: env.GANTRY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    mysqlUrl: env.GANTRY_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test',
    redisUrl: env.GANTRY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    /** Comma-separated subset of sqlite,postgres,mysql to run; all by default. */
    dialects: env.GANTRY_TEST_DIALECTS?.split(',').map((d) => d.trim()),
  };
}

const RunnerConfigSchema = z.object({
  server: z.string().optional(),
  token: z.string().optional(),
  token_file: z.string().optional(),
  registration_token: z.string().optional(),
  work_dir: z.string().default('./runner-data'),
});
type RunnerOptions = Partial<Record<keyof z.input<typeof RunnerConfigSchema>, string | undefined>>;
export type RunnerConfig = z.infer<typeof RunnerConfigSchema> & { task_base_env: Record<string, string> };

/**
 * Settings of `gantry runner`, which needs no database: command-line options win over
 * GANTRY_RUNNER_* variables (GANTRY_RUNNER_SERVER, _TOKEN, _TOKEN_FILE, _REGISTRATION_TOKEN, _WORK_DIR).
 */
export function loadRunnerConfig(options: RunnerOptions, env: NodeJS.ProcessEnv = process.env): RunnerConfig {
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(RunnerConfigSchema.shape) as (keyof RunnerOptions)[]) {
    const value = options[key] ?? env[`${ENV_PREFIX}RUNNER_${key.toUpperCase()}`];
    if (value !== undefined && value !== '') values[key] = value;
  }
  const config = RunnerConfigSchema.parse(values);
  const workDir = path.resolve(config.work_dir);
  return { ...config, work_dir: workDir, task_base_env: buildTaskBaseEnv(env, workDir) };
}
