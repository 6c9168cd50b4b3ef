import type { Clock } from '../src/clock.ts';
import { ensureFirstAdmin } from '../src/bootstrap-admin.ts';
import { loadConfig, readTestEnvironment, type Config, type ConfigInput } from '../src/config.ts';
import { openRuntime, type Runtime } from '../src/runtime.ts';

/**
 * An installation's runtime in this process, as tests and benchmarks open one: silent, without a web UI, with the
 * test machine's PATH, its first admin made. `settings` names the data directory, the admin and the rest.
 */
export async function openLocalRuntime(
  settings: ConfigInput,
  clock?: Clock,
): Promise<{ config: Config; runtime: Runtime }> {
  const config = loadConfig(
    { web_dist_dir: '/nonexistent-web-dist', log_level: 'silent', ...settings },
    { PATH: readTestEnvironment().path },
  );
  const runtime = await openRuntime(config, clock);
  await ensureFirstAdmin(config, runtime.services.users);
  return { config, runtime };
}
