import { pino } from 'pino';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { connectDatabase, type DbConnection } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createServices, type Services } from './services.ts';

export interface Runtime {
  config: Config;
  connection: DbConnection;
  services: Services;
  close(): Promise<void>;
}

/** Connects the store, applies pending migrations and builds the services. */
export async function openRuntime(config: Config, clock: Clock = systemClock): Promise<Runtime> {
  const connection = connectDatabase(config.db_dialect, config.db_url);
  try {
    await migrateToLatest(connection.db, connection.dialect);
  } catch (error) {
    await connection.db.destroy();
    throw error;
  }
  const logger = pino({ level: config.log_level });
  const services = createServices({ config, connection, clock, logger });
  return {
    config,
    connection,
    services,
    async close() {
      services.scheduler.stop();
      await services.taskRetention.stop();
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
