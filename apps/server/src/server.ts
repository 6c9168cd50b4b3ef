import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { ensureFirstAdmin } from './bootstrap-admin.ts';
import type { Config } from './config.ts';
import { openRuntime } from './runtime.ts';
import { prepareWorkRoot } from '@gantry/runner';

/**
 * Starts a whole installation in this process: store, first admin, API and web UI. What it has to
 * say goes to `print` as plain lines for a person at a terminal, or otherwise into the JSON log, so a
 * service manager or container runtime only ever sees structured lines.
 */
export async function startServer(config: Config, print?: (line: string) => void): Promise<FastifyInstance> {
  prepareWorkRoot(config.data_dir);
  const runtime = await openRuntime(config);
  // Hashing the first admin's password (argon2, on a worker thread) overlaps building the routes.
  const [adminMade, appBuilt] = await Promise.allSettled([
    ensureFirstAdmin(config, runtime.services.users),
    buildApp({ config, services: runtime.services }),
  ]);
  if (adminMade.status === 'rejected' || appBuilt.status === 'rejected') {
    // Nothing is left open behind a start that failed (a first admin's password too short, say).
    if (appBuilt.status === 'fulfilled') await appBuilt.value.close();
    await runtime.close();
    throw adminMade.status === 'rejected' ? adminMade.reason : (appBuilt as PromiseRejectedResult).reason;
  }
  const admin = adminMade.value;
  const app = appBuilt.value;
  app.addHook('onClose', () => runtime.close());
  const address = await app.listen({ port: config.port, host: config.host });
  // Alone, this process closes every in-process task a previous one left; in a cluster, only those of silent nodes.
  const presence = runtime.services.presence;
  const recovered = presence ? await presence.start() : await runtime.services.engine.recover();
  // One announcement, two forms: plain lines for a terminal, one structured record for a log.
  const logger = runtime.services.logger;
  const announce = (level: 'info' | 'warn', message: string, fields: Record<string, unknown>, lines: string[]) => {
    if (print) lines.forEach((line) => print(line));
    else logger[level](fields, message);
  };
  if (recovered > 0)
    announce('warn', 'closed tasks left running by a previous process', { tasks: recovered }, [
      `Closed ${recovered} task(s) left running by a previous process.`,
    ]);
  runtime.services.engine.wake();
  runtime.services.scheduler.start();
  runtime.services.workflowRuns.beginSweep();
  runtime.services.taskApprovals.beginSweep();
  runtime.services.retrySweep.begin();
  runtime.services.taskRetention.start();
  runtime.services.logIndexer.start();
  runtime.services.runnerJobs.start();
  const url = `http://localhost:${config.port}`;
  announce('info', 'Gantry is running', { url, address, store: config.db_dialect }, [
    `Gantry is running at ${url} (listening on ${address}, ${config.db_dialect} store).`,
  ]);
  if (admin?.generatedPassword) {
    const change = `npx gantry user change-by-login --login ${admin.login} --password <new password>`;
    // At warn, so that it shows at every usual log level: it is the only way in, and said once.
    announce(
      'warn',
      'A first administrator was created; this password is shown only once',
      { login: admin.login, password: admin.generatedPassword, change },
      [
        '',
        'A first administrator was created. Sign in with:',
        `  login:    ${admin.login}`,
        `  password: ${admin.generatedPassword}`,
        'This password is shown only once. Change it with:',
        `  ${change}`,
        '',
      ],
    );
  } else if (admin) {
    announce('info', 'a first administrator was created with the configured password', { login: admin.login }, [
      `A first administrator "${admin.login}" was created with the configured password.`,
    ]);
  }
  return app;
}
