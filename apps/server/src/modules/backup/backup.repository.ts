import type { Db, Dialect } from '../../db/database.ts';
import { createEnvironmentsRepository } from '../environments/environments.repository.ts';
import { createIntegrationsRepository } from '../integrations/integrations.repository.ts';
import { createInventoriesRepository } from '../inventories/inventories.repository.ts';
import { createKeysRepository } from '../keys/keys.repository.ts';
import { createProjectsRepository } from '../projects/projects.repository.ts';
import { createRepositoriesRepository } from '../repositories/repositories.repository.ts';
import { createSchedulesRepository } from '../schedules/schedules.repository.ts';
import { createTemplatesRepository } from '../templates/templates.repository.ts';
import type { TemplateVaultRow } from '../templates/templates.table.ts';
import { createViewsRepository } from '../views/views.repository.ts';
import { createWorkflowsRepository } from '../workflows/workflows.repository.ts';

/**
 * Every store a backup reads or a restore writes, bound to one connection or transaction: a restore
 * passes its transaction here, so that a failure half-way leaves nothing behind.
 */
export function createBackupStores(db: Db, dialect: Dialect) {
  return {
    projects: createProjectsRepository(db, dialect),
    keys: createKeysRepository(db, dialect),
    repositories: createRepositoriesRepository(db, dialect),
    inventories: createInventoriesRepository(db, dialect),
    environments: createEnvironmentsRepository(db, dialect),
    views: createViewsRepository(db, dialect),
    templates: createTemplatesRepository(db, dialect),
    schedules: createSchedulesRepository(db, dialect),
    integrations: createIntegrationsRepository(db, dialect),
    workflows: createWorkflowsRepository(db, dialect),
    /** Which of these git URLs repositories of other projects use too. */
    async listGitUrlsUsedElsewhere(projectId: number, urls: string[]): Promise<Set<string>> {
      if (urls.length === 0) return new Set();
      const rows = await db
        .selectFrom('repository')
        .select('git_url')
        .where('project_id', '<>', projectId)
        .where('git_url', 'in', urls)
        .execute();
      return new Set(rows.map((r) => r.git_url));
    },
    /** Adds vaults to a new template; the templates repository's saveVaults opens a transaction of its own. */
    async insertVaults(rows: Omit<TemplateVaultRow, 'id'>[]): Promise<void> {
      if (rows.length > 0) await db.insertInto('template_vault').values(rows).execute();
    },
  };
}

export type BackupStores = ReturnType<typeof createBackupStores>;
