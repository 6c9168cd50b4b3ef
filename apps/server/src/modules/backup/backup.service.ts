import { rmSync } from 'node:fs';
import path from 'node:path';
import type { CreateProjectBody, Project } from '@gantry/contract';
import { Permission, ProjectBackup, hasPermissions, isTerraformApp } from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Db, Dialect } from '../../db/database.ts';
import type { SecretBox } from '../../secrets/secret-box.ts';
import type { AppsService } from '../apps/apps.service.ts';
import type { EventsService } from '../events/events.service.ts';
import { assertCanCreateProject, toProject } from '../projects/projects.service.ts';
import type { ProjectAccess } from '../projects/projects.service.ts';
import { createWorkspacesService } from '../terraform/workspaces.service.ts';
import type { UserRow } from '../users/users.table.ts';
import { buildBackup } from './backup-export.ts';
import { createBackupStores } from './backup.repository.ts';
import { writeBackup } from './backup-restore.ts';
import { verifyBackup } from './backup-verify.ts';
import { DEMO_REPOSITORIES_DIR, buildDemoBackup, createDemoRepository } from './demo-project.ts';

interface BackupDeps {
  config: Config;
  secrets: SecretBox;
  clock: Clock;
  db: Db;
  dialect: Dialect;
  apps: AppsService;
  events: EventsService;
  /** Tells the scheduler that restored schedules may be due. */
  onSchedulesChanged(): void;
}

export function createBackupService({
  config,
  secrets,
  clock,
  db,
  dialect,
  apps,
  events,
  onSchedulesChanged,
}: BackupDeps) {
  const stores = createBackupStores(db, dialect);

  return {
    /**
     * The project's backup as `access` may read it: without webhook aliases for who may not run
     * tasks, without credentials in repository URLs for who does not manage the project's resources.
     */
    backup({ project, permissions }: ProjectAccess): Promise<ProjectBackup> {
      return buildBackup(stores, project, {
        withAliases: hasPermissions(permissions, Permission.runProjectTasks),
        withUrlCredentials: hasPermissions(permissions, Permission.manageProjectResources),
      });
    },

    /** Creates a new project from a backup, all of it or nothing; the caller becomes its owner. */
    async restore(
      actor: UserRow,
      backup: ProjectBackup,
      description = `Project ${backup.meta.name} restored`,
    ): Promise<Project> {
      assertCanCreateProject(config, actor);
      verifyBackup(backup, config.schedule_timezone);
      // Checked before the transaction opens: SQLite has one connection, a read beside it would wait forever.
      for (const app of new Set(backup.templates.map((t) => t.app))) await apps.assertKnown(app);
      const row = await db.transaction().execute(async (trx) => {
        const trxStores = createBackupStores(trx, dialect);
        const project = await writeBackup(trxStores, backup, {
          ownerId: actor.id,
          ownerUsername: actor.username,
          now: clock.now(),
          timezone: config.schedule_timezone,
          seal: (secret) => secrets.seal(secret),
        });
        // Terraform/tofu templates get their workspace the way a template created by hand does.
        const workspaces = createWorkspacesService({
          templates: trxStores.templates,
          inventories: trxStores.inventories,
          events,
          clock,
        });
        for (const template of await trxStores.templates.list(project.id, 'name', 'asc')) {
          if (isTerraformApp(template.app)) await workspaces.ensureDefault(project.id, template.id);
        }
        return project;
      });
      await events.record({
        userId: actor.id,
        projectId: row.id,
        objectType: 'project',
        objectId: row.id,
        description,
      });
      if (backup.schedules.length > 0 || backup.templates.some((t) => t.cron)) onSchedulesChanged();
      return toProject(row);
    },

    /**
     * The demo repositories that go with the project when it is deleted: those in the demo directory
     * that no other project uses (a project restored from a demo's backup shares the demo's).
     */
    async listOwnDemoRepositories(projectId: number): Promise<string[]> {
      const demoRoot = path.join(path.resolve(config.data_dir), DEMO_REPOSITORIES_DIR) + path.sep;
      const urls = (await stores.repositories.list(projectId, 'name', 'asc'))
        .map((r) => r.git_url)
        .filter((url) => path.resolve(url).startsWith(demoRoot));
      const shared = await stores.listGitUrlsUsedElsewhere(projectId, urls);
      return urls.filter((url) => !shared.has(url));
    },

    /** A project whose templates run out of the box, from a local repository of scripts shipped with Gantry. */
    async createDemo(actor: UserRow, body: z.output<typeof CreateProjectBody>): Promise<Project> {
      assertCanCreateProject(config, actor);
      const repositoryDir = await createDemoRepository(config.data_dir, config.task_base_env);
      const backup = ProjectBackup.parse(buildDemoBackup(body.name, repositoryDir));
      backup.meta = {
        ...backup.meta,
        alert: body.alert ?? false,
        alert_chat: body.alert_chat ?? null,
        max_parallel_tasks: body.max_parallel_tasks ?? 0,
      };
      try {
        return await this.restore(actor, backup, `Demo project ${body.name} created`);
      } catch (error) {
        rmSync(repositoryDir, { recursive: true, force: true });
        throw error;
      }
    },
  };
}

export type BackupService = ReturnType<typeof createBackupService>;
