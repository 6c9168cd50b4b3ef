import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The only module that reads process.env. A JSON file named by GANTRY_CONFIG may set the same keys
 * (snake_case, without the GANTRY_ prefix); environment variables win over the file.
 */

const bool = z
  .union([z.boolean(), z.string()])
  .transform((v) => (typeof v === 'boolean' ? v : ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase())));
const int = z.coerce.number().int().min(0);

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
});

const ConfigSchema = z.object({
  port: int.default(3000),
  host: z.string().default('0.0.0.0'),
  data_dir: z.string().default('./data'),
  db_dialect: z.enum(['sqlite', 'postgres', 'mysql']).default('sqlite'),
  db_url: z.string().optional(),
  admin_login: z.string().optional(),
  admin_password: z.string().optional(),
  admin_email: z.string().optional(),
  admin_name: z.string().optional(),
  web_host: z.string().default(''),
  web_dist_dir: z.string().optional(),
  use_remote_runner: bool.default(false),
  non_admin_can_create_project: bool.default(false),
  password_login_disabled: bool.default(false),
  demo_mode: bool.default(false),
  access_key_encryption: z.string().optional(),
  session_idle_minutes: int.default(7 * 24 * 60),
  login_max_failures: int.default(10),
  login_failure_window_seconds: int.default(15 * 60),
  trust_proxy: bool.default(false),
  max_body_bytes: int.default(10 * 1024 * 1024),
  schedule_timezone: z.string().default('UTC'),
  log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  oidc_providers: z.record(z.string(), OidcProviderConfig).default({}),
  max_parallel_tasks: int.default(0),
  task_timeout_minutes: int.default(0),
  task_kill_grace_seconds: int.default(10),
});

export type Config = z.infer<typeof ConfigSchema> & {
  db_url: string;
  data_dir: string;
  web_dist_dir: string;
  /** The environment every task process starts from: an allowlist of the server's, never all of it. */
  task_base_env: Record<string, string>;
};

/** Server variables a task may see; everything else (credentials, tokens) stays with the server. */
const TASK_ENV_ALLOWLIST = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'http_proxy', 'https_proxy', 'no_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'];
export type ConfigInput = z.input<typeof ConfigSchema>;

const ENV_PREFIX = 'GANTRY_';

function readEnvironment(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const value = env[ENV_PREFIX + key.toUpperCase()];
    if (value === undefined || value === '') continue;
    values[key] = key === 'oidc_providers' ? JSON.parse(value) : value;
  }
  return values;
}

function readConfigFile(file: string | undefined): Record<string, unknown> {
  if (!file) return {};
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`Configuration file ${file} must hold a JSON object`);
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

const defaultWebDist = path.resolve(import.meta.dirname, '../../web/dist');

/** Builds a validated configuration from file, environment and explicit overrides (tests use the last). */
export function loadConfig(overrides: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const merged = { ...readConfigFile(env.GANTRY_CONFIG), ...readEnvironment(env), ...overrides };
  const result = ConfigSchema.safeParse(merged);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const config = result.data;
  const dataDir = path.resolve(config.data_dir);
  return {
    ...config,
    data_dir: dataDir,
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
    /** Comma-separated subset of sqlite,postgres,mysql to run; all by default. */
    dialects: env.GANTRY_TEST_DIALECTS?.split(',').map((d) => d.trim()),
  };
}
