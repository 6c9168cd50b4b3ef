import { systemApi } from '@gantry/contract';
import type { Config } from '../../config.ts';
import type { Routes } from '../../http/route.ts';
import { SIGNED_IN } from '../../http/route.ts';
import { GANTRY_VERSION } from '../../version.ts';
import { describeAuthMethods } from '../auth/totp.service.ts';

export function registerSystemRoutes(route: Routes, { config }: { config: Config }) {
  route(systemApi.info, SIGNED_IN, () => ({
    version: GANTRY_VERSION,
    ansible: '',
    web_host: config.web_host,
    use_remote_runner: config.use_remote_runner,
    // Everything the peers sell as "pro" is part of Gantry.
    premium_features: { project_runners: true, terraform_backend: true, task_summary: true },
    schedule_timezone: config.schedule_timezone,
    demo_mode: config.demo_mode,
    auth_methods: describeAuthMethods(config),
  }));
}
