import { z } from 'zod';
import { endpoint, projectEndpoint } from './endpoint.ts';
import { DateTime, Id } from './common.ts';
import { AuthMethods } from './totp.ts';

/** The features Semaphore sells as "pro"; Gantry has them all and reports those its configuration offers. */
export const PREMIUM_FEATURES = ['project_runners', 'terraform_backend', 'task_summary'] as const;
export type PremiumFeature = (typeof PREMIUM_FEATURES)[number];

export const SystemInfo = z.object({
  version: z.string(),
  ansible: z.string(),
  web_host: z.string(),
  use_remote_runner: z.boolean(),
  /** Semaphore's name for how repositories are fetched; Gantry always runs the git command. */
  git_client: z.literal('cmd_git'),
  premium_features: z.record(z.string(), z.boolean()),
  schedule_timezone: z.string(),
  demo_mode: z.boolean(),
  auth_methods: AuthMethods.default({}),
  /** Semaphore's teams configuration (unset there unless configured); Gantry has none. */
  teams: z.null(),
  /** Semaphore's custom global roles (a paid feature, none in its community edition); Gantry has none. */
  roles: z.array(z.never()),
});
export type SystemInfo = z.infer<typeof SystemInfo>;

export const Event = z.object({
  id: Id,
  created: DateTime,
  user_id: Id.nullable(),
  project_id: Id.nullable(),
  object_id: Id.nullable(),
  object_type: z.string().nullable(),
  object_name: z.string(),
  description: z.string(),
  username: z.string().nullable(),
  project_name: z.string().nullable(),
  integration_id: Id.nullable(),
});
export type Event = z.infer<typeof Event>;

/** Readiness of one server process: each check passes or names what is wrong. */
export const Readiness = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({ store: z.string(), migrations: z.string(), scheduler: z.string() }),
});
export type Readiness = z.infer<typeof Readiness>;

export const systemApi = {
  ping: endpoint({ method: 'GET', path: '/api/ping', response: z.string() }),
  /** The process is alive and answers; touches nothing else (liveness probe). */
  health: endpoint({ method: 'GET', path: '/api/health', response: z.object({ status: z.literal('ok') }) }),
  /** The process can serve: store reachable, migrations applied, scheduler running (readiness probe; 503 otherwise). */
  ready: endpoint({ method: 'GET', path: '/api/ready', response: Readiness }),
  info: endpoint({ method: 'GET', path: '/api/info', response: SystemInfo }),
};

export const eventsApi = {
  list: endpoint({ method: 'GET', path: '/api/events', response: z.array(Event) }),
  last: endpoint({ method: 'GET', path: '/api/events/last', response: z.array(Event) }),
  projectList: projectEndpoint('/events', { method: 'GET', response: z.array(Event) }),
  projectLast: projectEndpoint('/events/last', { method: 'GET', response: z.array(Event) }),
};
