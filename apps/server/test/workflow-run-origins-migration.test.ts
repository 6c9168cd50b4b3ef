import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrate.ts';
import { withStoreMigratedUpTo } from './migration-fixture.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('migration 0022 on a %s store that holds schedules and integrations', (dialect) => {
  it('keeps every row and what refers to them, and lets a schedule or integration go without a template', async () => {
    await withStoreMigratedUpTo(dialect, '0019-host-history', async (db) => {
      const time = '2026-01-01T00:00:00.000Z';
      await sql`insert into project (id, name, created) values (4, 'P', ${time})`.execute(db);
      await sql`insert into template (id, project_id, name, description, app, survey_vars, task_params, created)
        values (6, 4, 'T', '', 'bash', '[]', '{}', ${time})`.execute(db);
      for (const name of ['Kept', 'Deleted'])
        await sql`insert into schedule (project_id, template_id, name, cron_format, active, task_params, created)
          values (4, 6, ${name}, '* * * * *', 1, '{}', ${time})`.execute(db);
      const ids = await db.selectFrom('schedule').select('id').orderBy('id').execute();
      const [kept, deleted] = ids.map((r) => r.id);
      await sql`insert into integration (id, project_id, template_id, name, auth_method, auth_header, searchable, task_params, created)
        values (5, 4, 6, 'I', '', '', 0, '{}', ${time})`.execute(db);
      await sql`insert into integration_alias (project_id, integration_id, alias, created) values (4, 5, 'abc', ${time})`.execute(
        db,
      );
      await sql`insert into integration_matcher (project_id, integration_id, name, match_type, body_data_type, ${sql.ref('key')}, method, value)
        values (4, 5, 'm', 'body', 'json', 'ref', 'equals', 'main')`.execute(db);
      // A deleted schedule's id is not handed out again.
      await sql`delete from schedule where id = ${deleted}`.execute(db);

      await migrateToLatest(db, dialect);

      const { rows: schedules } = await sql`select id, template_id, workflow_id, name from schedule`.execute(db);
      expect(schedules).toEqual([{ id: kept, template_id: 6, workflow_id: null, name: 'Kept' }]);
      expect((await sql`select id, template_id, workflow_id from integration`.execute(db)).rows).toEqual([
        { id: 5, template_id: 6, workflow_id: null },
      ]);
      expect(await db.selectFrom('integration_alias').select('alias').execute()).toEqual([{ alias: 'abc' }]);
      expect(await db.selectFrom('integration_matcher').select('name').execute()).toEqual([{ name: 'm' }]);
      await sql`insert into schedule (project_id, template_id, name, cron_format, active, task_params, created)
        values (4, null, 'W', '* * * * *', 1, '{}', ${time})`.execute(db);
      const { rows: added } = await sql<{
        id: number;
        template_id: number | null;
      }>`select id, template_id from schedule where name = 'W'`.execute(db);
      expect(added).toEqual([{ id: expect.any(Number) as number, template_id: null }]);
      expect(added[0]!.id).toBeGreaterThan(deleted!);
      // The foreign keys still hold.
      await expect(
        sql`insert into integration_alias (project_id, integration_id, alias, created) values (4, 77, 'x', ${time})`.execute(
          db,
        ),
      ).rejects.toThrow();
      await sql`delete from project where id = 4`.execute(db);
      expect(await db.selectFrom('integration_alias').select('alias').execute()).toEqual([]);
    });
  });
});
