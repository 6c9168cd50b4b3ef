import { PREMIUM_FEATURES, systemApi } from '@gantry/contract';
import type { Config } from '../../config.ts';
import type { Routes } from '../../http/route.ts';
import { PUBLIC, SIGNED_IN } from '../../http/route.ts';
import { GANTRY_VERSION } from '../../version.ts';
import { describeAuthMethods } from '../auth/totp.service.ts';
import type { ReadinessService } from './readiness.ts';

export function registerSystemRoutes(
  route: Routes,
  { config, readiness }: { config: Config; readiness: ReadinessService },
) {
  route(systemApi.health, PUBLIC, ({ reply }) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' as const };
  });
  route(systemApi.ready, PUBLIC, async ({ reply }) => {
    const result = await readiness.check();
    reply.header('cache-control', 'no-store');
    if (result.status !== 'ready') return reply.code(503).send(result);
    return result;
  });
  route(systemApi.info, SIGNED_IN, () => ({
    version: GANTRY_VERSION,
    ansible: '',
    web_host: config.web_host,
    use_remote_runner: config.use_remote_runner,
    git_client: 'cmd_git' as const,
    // Everything the peers sell as "pro" is part of Gantry; the configuration says which the UI offers.
    premium_features: Object.fromEntries(
      PREMIUM_FEATURES.map((feature) => [feature, config.premium_features.includes(feature)]),
    ),
    schedule_timezone: config.schedule_timezone,
    demo_mode: config.demo_mode,
    auth_methods: describeAuthMethods(config),
    teams: null,
    roles: [],
  }));
}
