import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { DateTime, Id, ProjectParams } from './common.ts';
import { AuthMethods } from './totp.ts';

export const SystemInfo = z.object({
  version: z.string(),
  ansible: z.string(),
  web_host: z.string(),
  use_remote_runner: z.boolean(),
  premium_features: z.record(z.string(), z.boolean()),
  schedule_timezone: z.string(),
  demo_mode: z.boolean(),
  auth_methods: AuthMethods.default({}),
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
});
export type Event = z.infer<typeof Event>;

export const systemApi = {
  ping: endpoint({ method: 'GET', path: '/api/ping', response: z.string() }),
  info: endpoint({ method: 'GET', path: '/api/info', response: SystemInfo }),
};

export const eventsApi = {
  list: endpoint({ method: 'GET', path: '/api/events', response: z.array(Event) }),
  last: endpoint({ method: 'GET', path: '/api/events/last', response: z.array(Event) }),
  projectList: endpoint({ method: 'GET', path: '/api/project/:projectId/events', params: ProjectParams, response: z.array(Event) }),
  projectLast: endpoint({ method: 'GET', path: '/api/project/:projectId/events/last', params: ProjectParams, response: z.array(Event) }),
};
