import type { Readiness } from '@gantry/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { SystemRepository } from './system.repository.ts';

/** A store that does not answer within this time counts as unreachable: a probe must not hang. */
const STORE_TIMEOUT_MS = 2000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** What a readiness probe asks: can this process serve requests and run schedules right now? */
export function createReadiness(deps: {
  system: SystemRepository;
  schedulerRunning(): boolean;
  logger: FastifyBaseLogger;
}) {
  async function checkStore(): Promise<{ store: string; migrations: string }> {
    try {
      await withTimeout(deps.system.ping(), STORE_TIMEOUT_MS);
    } catch (error) {
      deps.logger.warn({ err: error }, 'Readiness: the store is unreachable');
      return { store: 'unreachable', migrations: 'unknown' };
    }
    try {
      const pending = await withTimeout(deps.system.listPendingMigrations(), STORE_TIMEOUT_MS);
      return { store: 'ok', migrations: pending.length === 0 ? 'ok' : `${pending.length} pending` };
    } catch (error) {
      deps.logger.warn({ err: error }, 'Readiness: could not read the applied migrations');
      return { store: 'ok', migrations: 'unknown' };
    }
  }

  return {
    async check(): Promise<Readiness> {
      const checks = { ...(await checkStore()), scheduler: deps.schedulerRunning() ? 'ok' : 'stopped' };
      const ready = checks.store === 'ok' && checks.migrations === 'ok' && checks.scheduler === 'ok';
      return { status: ready ? 'ready' : 'not_ready', checks };
    },
  };
}

export type ReadinessService = ReturnType<typeof createReadiness>;
