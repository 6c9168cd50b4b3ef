import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { ensureFirstAdmin } from './bootstrap-admin.ts';
import type { Config } from './config.ts';
import { openRuntime } from './runtime.ts';
import { prepareWorkRoot } from './secrets/private-data.ts';

/** Starts a whole installation in this process: store, first admin, API and web UI. */
export async function startServer(config: Config, print: (line: string) => void = console.log): Promise<FastifyInstance> {
  prepareWorkRoot(config.data_dir);
  const runtime = await openRuntime(config);
  const admin = await ensureFirstAdmin(config, runtime.services.users);
  const app = await buildApp({ config, services: runtime.services });
  app.addHook('onClose', () => runtime.close());
  const address = await app.listen({ port: config.port, host: config.host });
  // Alone, this process closes every in-process task a previous one left; in a cluster, only those of silent nodes.
  const presence = runtime.services.presence;
  const recovered = presence ? await presence.start() : await runtime.services.engine.recover();
  if (recovered > 0) print(`Closed ${recovered} task(s) left running by a previous process.`);
  runtime.services.engine.wake();
  runtime.services.scheduler.start();
  runtime.services.taskRetention.start();
  runtime.services.runnerJobs.start();
  const url = `http://localhost:${config.port}`;
  print(`Gantry is running at ${url} (listening on ${address}, ${config.db_dialect} store).`);
  if (admin?.generatedPassword) {
    print('');
    print('A first administrator was created. Sign in with:');
    print(`  login:    ${admin.login}`);
    print(`  password: ${admin.generatedPassword}`);
    print('This password is shown only once. Change it with:');
    print(`  npx gantry user change-by-login --login ${admin.login} --password <new password>`);
    print('');
  } else if (admin) {
    print(`A first administrator "${admin.login}" was created with the configured password.`);
  }
  return app;
}
