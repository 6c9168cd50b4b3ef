import type { Db } from '../../db/database.ts';
import type { TaskRow } from '../tasks/tasks.table.ts';

export interface AlertSubjectRow {
  project_name: string;
  project_alert: number;
  alert_chat: string | null;
  template_name: string;
  suppress_success_alerts: number;
}

export interface AlertRecipient {
  name: string;
  email: string;
}

export function createAlertsRepository(db: Db) {
  return {
    /** The project and template of a task, with their alert settings, in one read. */
    findSubject(projectId: number, templateId: number): Promise<AlertSubjectRow | undefined> {
      return db
        .selectFrom('template')
        .innerJoin('project', 'project.id', 'template.project_id')
        .select([
          'project.name as project_name',
          'project.alert as project_alert',
          'project.alert_chat',
          'template.name as template_name',
          'template.suppress_success_alerts',
        ])
        .where('template.project_id', '=', projectId)
        .where('template.id', '=', templateId)
        .executeTakeFirst();
    },
    findProject(projectId: number) {
      return db
        .selectFrom('project')
        .select(['name', 'alert', 'alert_chat'])
        .where('id', '=', projectId)
        .executeTakeFirst();
    },
    findTask(taskId: number): Promise<TaskRow | undefined> {
      return db.selectFrom('task').selectAll().where('id', '=', taskId).executeTakeFirst();
    },
    async findAuthorName(userId: number): Promise<string | undefined> {
      const row = await db.selectFrom('users').select(['name', 'username']).where('id', '=', userId).executeTakeFirst();
      return row ? row.name || row.username : undefined;
    },
    /** Members of the project who asked for e-mail alerts and have an address to send them to. */
    listRecipients(projectId: number): Promise<AlertRecipient[]> {
      return db
        .selectFrom('project_user')
        .innerJoin('users', 'users.id', 'project_user.user_id')
        .select(['users.name', 'users.email'])
        .where('project_user.project_id', '=', projectId)
        .where('users.alert', '=', 1)
        .where('users.email', '!=', '')
        .orderBy('users.id')
        .execute();
    },
  };
}

export type AlertsRepository = ReturnType<typeof createAlertsRepository>;
