import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import type { Db, Dialect } from './database.ts';
import { foundation } from './migrations/0001-foundation.ts';
import { projectResources } from './migrations/0002-project-resources.ts';
import { tasks } from './migrations/0003-tasks.ts';
import { schedules } from './migrations/0004-schedules.ts';
import { integrations } from './migrations/0005-integrations.ts';
import { authFactors } from './migrations/0006-auth-factors.ts';
import { runners } from './migrations/0007-runners.ts';
import { terraform } from './migrations/0008-terraform.ts';
import { clusterNodes } from './migrations/0009-cluster-nodes.ts';
import { loginAttempts } from './migrations/0010-login-attempts.ts';
import { environmentPassword } from './migrations/0011-environment-password.ts';
import { taskDeleteIndexes } from './migrations/0012-task-delete-indexes.ts';
import { taskStats } from './migrations/0013-task-stats.ts';
import { workflows } from './migrations/0014-workflows.ts';
import { taskHosts } from './migrations/0015-task-hosts.ts';
import { workflowRuns } from './migrations/0016-workflow-runs.ts';
import { taskOutputKey } from './migrations/0017-task-output-key.ts';
import { workflowApprovals } from './migrations/0018-workflow-approvals.ts';
import { hostHistory } from './migrations/0019-host-history.ts';
import { logSearchIndex } from './migrations/0020-log-search-index.ts';
import { taskOutputs } from './migrations/0021-task-outputs.ts';
import { workflowRunOrigins } from './migrations/0022-workflow-run-origins.ts';
import { templateRunSettings } from './migrations/0023-template-run-settings.ts';
import { taskPlan } from './migrations/0024-task-plan.ts';
import { approvalAlerts } from './migrations/0025-approval-alerts.ts';
import { workflowStatsAndUses } from './migrations/0026-workflow-stats-and-uses.ts';
import { requestKeys } from './migrations/0027-request-keys.ts';
import { externalIdentities } from './migrations/0028-external-identities.ts';
import { runnerJobSent } from './migrations/0029-runner-job-sent.ts';
import { createSchemaHelpers, type GantryMigration } from './schema.ts';

/** The one ordered migration set, shared by every dialect. */
const MIGRATIONS: GantryMigration[] = [
  foundation,
  projectResources,
  tasks,
  schedules,
  integrations,
  authFactors,
  runners,
  terraform,
  clusterNodes,
  loginAttempts,
  environmentPassword,
  taskDeleteIndexes,
  taskStats,
  workflows,
  taskHosts,
  workflowRuns,
  taskOutputKey,
  workflowApprovals,
  hostHistory,
  logSearchIndex,
  taskOutputs,
  workflowRunOrigins,
  templateRunSettings,
  taskPlan,
  approvalAlerts,
  workflowStatsAndUses,
  requestKeys,
  externalIdentities,
  runnerJobSent,
];

function createMigrator(db: Db, dialect: Dialect): Migrator {
  const migrations: Record<string, Migration> = {};
  for (const m of MIGRATIONS)
    migrations[m.name] = { up: (database: Kysely<unknown>) => m.up(database, createSchemaHelpers(database, dialect)) };
  return new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    migrationTableName: 'gantry_migration',
    migrationLockTableName: 'gantry_migration_lock',
  });
}

/** A migration ran and failed: the store answered, so its message is the useful part. */
class MigrationFailure extends Error {}

export function isMigrationFailure(error: unknown): boolean {
  return error instanceof MigrationFailure;
}

/** Applies pending migrations; returns the names applied. Throws on the first failure. */
export async function migrateToLatest(db: Db, dialect: Dialect): Promise<string[]> {
  const result: MigrationResultSet = await createMigrator(db, dialect).migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    // No failed migration: the store itself did not answer (connection, lock table).
    if (!failed) throw result.error;
    throw new MigrationFailure(`Migration ${failed} failed: ${String(result.error)}`, { cause: result.error });
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Applies the migrations up to and including `name`, as a store of an earlier build had them. */
export async function migrateUpTo(db: Db, dialect: Dialect, name: string): Promise<void> {
  const result = await createMigrator(db, dialect).migrateTo(name);
  if (result.error) throw result.error;
}

/** Names of the migrations this build knows that the store has not applied yet. */
export async function listPendingMigrations(db: Db, dialect: Dialect): Promise<string[]> {
  const migrations = await createMigrator(db, dialect).getMigrations();
  return migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** The migrations this build knows, in order. */
export function listKnownMigrations(): string[] {
  return MIGRATIONS.map((m) => m.name);
}

/** The migrations recorded in a store, including any from a newer build. */
export async function listExecutedMigrations(db: Db): Promise<string[]> {
  const result = await sql<{ name: string }>`select name from gantry_migration`.execute(db);
  return result.rows.map((row) => row.name);
}
