import { pino } from 'pino';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { connectDatabase, type ConnectionOptions, type DbConnection } from './db/connect.ts';
import { isMigrationFailure, migrateToLatest } from './db/migrate.ts';
import { storeUnavailable } from './db/store-unavailable.ts';
import { createServices, type Services } from './services.ts';

export interface Runtime {
  config: Config;
  connection: DbConnection;
  services: Services;
  close(): Promise<void>;
}

/** Connects the store and applies pending migrations; a store that cannot be reached is a StoreUnavailableError. */
export async function openMigratedStore(
  config: Config,
  hooks: Pick<ConnectionOptions, 'onQuery'> = {},
): Promise<{ connection: DbConnection; applied: string[] }> {
  let connection: DbConnection;
  try {
    connection = connectDatabase(config.db_dialect, config.db_url, {
      ...hooks,
      maxConnections: config.db_max_connections,
    });
  } catch (error) {
    throw storeUnavailable(config.db_dialect, config.db_url, error);
  }
  try {
    return { connection, applied: await migrateToLatest(connection.db, connection.dialect) };
  } catch (error) {
    await connection.db.destroy().catch(() => undefined);
    throw isMigrationFailure(error) ? error : storeUnavailable(config.db_dialect, config.db_url, error);
  }
}

/** Connects the store, applies pending migrations and builds the services. */
export async function openRuntime(config: Config, clock: Clock = systemClock): Promise<Runtime> {
  // The metrics are built with the services, after the store is open: statements are counted from then on.
  let countQuery: NonNullable<ConnectionOptions['onQuery']> = () => {};
  const { connection } = await openMigratedStore(config, { onQuery: (result) => countQuery(result) });
  const logger = pino({ level: config.log_level });
  const services = createServices({ config, connection, clock, logger });
  countQuery = (result) => services.metrics.storeQuery(result);
  return {
    config,
    connection,
    services,
    async close() {
      services.scheduler.stop();
      await services.workflowRuns.endSweep();
      await services.taskApprovals.endSweep();
      await services.retrySweep.end();
      await services.taskRetention.stop();
      await services.logIndexer.stop();
      services.runnerJobs.close();
      await services.engine.shutdown();
      await services.alerts.drain();
      services.hub.closeAll();
      await services.presence?.stop();
      await services.clusterBus?.close();
      await connection.db.destroy();
    },
  };
}
