import { CompiledQuery, type Insertable } from 'kysely';
import type { Database, Db, Dialect } from '../apps/server/src/db/database.ts';
import { insertRow } from '../apps/server/src/db/insert.ts';
import { insertLogIndexRows, type IndexedLine } from '../apps/server/src/db/log-search-index.ts';
import { toIndexedWords } from '../apps/server/src/modules/tasks/log-search-words.ts';
import { countStatDeltas } from '../apps/server/src/modules/tasks/task-stat-deltas.ts';
import type { ProjectUserTable } from '../apps/server/src/modules/projects/projects.table.ts';
import type { TaskStatDayTable, TaskTable } from '../apps/server/src/modules/tasks/tasks.table.ts';
import { createRandom } from '../apps/server/test/seeded-random.ts';

const memberRole = (i: number): ProjectUserTable['role'] =>
  i % 4 === 0 ? 'manager' : i % 4 === 1 ? 'guest' : 'task_runner';

/**
 * Fills a migrated store with a year of busy use: projects with their members, keys, repositories,
 * variable groups, inventories, templates, schedules and integrations, then tasks spread over the
 * year (newest last, as ids grow with time), their log lines, one event per task and the per-day
 * stats counters, all with multi-row inserts (SQLite in one transaction). Deterministic for a seed.
 */
export interface YearOptions {
  projects: number;
  templates: number;
  tasks: number;
  lines: number;
  users: number;
  /** The end of the year; tasks are created in the 365 days before it. */
  now: Date;
  seed?: number;
  /**
   * Also fill the search index across task logs (migration 0020) with the finished tasks' lines as they are
   * written, the words made as the indexer makes them, and mark those tasks indexed: the store's text index is
   * dropped first and built once at the end, which a store does far faster than row by row (bench/logs-search.ts).
   */
  searchIndex?: boolean;
  /** Told about progress (rows written so far) now and then. */
  onProgress?(message: string): void;
}

export interface GeneratedYear {
  projectIds: number[];
  /** Template ids per project, in the order of projectIds. */
  templateIds: number[][];
  userIds: number[];
  /** The owner of every project, an admin. */
  adminId: number;
  taskCount: number;
  lineCount: number;
}

const DAY_MS = 86_400_000;
const YEAR_DAYS = 365;
/** Bind parameters per statement, under each store's limit (SQLite 32,766; PostgreSQL 65,535; MySQL by packet size). */
const MAX_PARAMETERS: Record<Dialect, number> = { sqlite: 32_000, postgres: 60_000, mysql: 30_000 };
/** Tasks generated (with their lines and events) per round. */
const TASK_ROUND = 5_000;
/** Tasks left unfinished at the end of the year: some still queued, some running. */
const OPEN_TASKS = { waiting: 10, running: 5 };

/**
 * Multi-row inserts with the statement text built here: the query builder's per-value work costs
 * more than the store's on millions of rows. Equal batch sizes give equal text (cached statements).
 */
async function insertMany<T extends keyof Database>(
  db: Db,
  dialect: Dialect,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const quote = (name: string) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`);
  if (dialect === 'postgres') return insertUnnested(db, table, columns, rows as Record<string, unknown>[]);
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS[dialect] / columns.length));
  for (let i = 0; i < rows.length; i += perStatement) {
    const batch = rows.slice(i, i + perStatement) as Record<string, unknown>[];
    const parameters: unknown[] = [];
    const tuples: string[] = [];
    for (const row of batch) {
      for (const column of columns) parameters.push(row[column] ?? null);
      tuples.push(`(${columns.map(() => '?').join(',')})`);
    }
    await db.executeQuery(
      CompiledQuery.raw(
        `insert into ${quote(table)} (${columns.map(quote).join(',')}) values ${tuples.join(',')}`,
        parameters,
      ),
    );
  }
}

/** PostgreSQL: one array parameter per column, unnested into rows by the server (no per-row parameters). */
async function insertUnnested(
  db: Db,
  table: string,
  columns: string[],
  rows: Record<string, unknown>[],
): Promise<void> {
  // Integers travel as bigint and texts as text; a column that is null throughout is sent as bigint,
  // which PostgreSQL assigns to a text column too.
  const types = columns.map((column) => (rows.some((row) => typeof row[column] === 'string') ? 'text' : 'int8'));
  const arrays = columns.map((column) => rows.map((row) => row[column] ?? null));
  const unnest = types.map((type, i) => `$${i + 1}::${type}[]`).join(',');
  const names = columns.map((name) => `"${name}"`).join(',');
  for (let i = 0; i < rows.length; i += 50_000) {
    const slice = arrays.map((values) => values.slice(i, i + 50_000));
    await db.executeQuery(
      CompiledQuery.raw(`insert into "${table}" (${names}) select * from unnest(${unnest})`, slice),
    );
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function generateYear(db: Db, dialect: Dialect, options: YearOptions): Promise<GeneratedYear> {
  if (options.searchIndex) await dropTextIndex(db, dialect);
  const year =
    dialect === 'sqlite'
      ? await db.transaction().execute((trx) => fill(trx, dialect, options))
      : await fill(db, dialect, options);
  if (options.searchIndex) {
    options.onProgress?.('building the text index');
    await buildTextIndex(db, dialect);
  }
  return year;
}

/** PostgreSQL's GIN and MariaDB's FULLTEXT index of migration 0020 go before a bulk fill (SQLite's FTS5 table is the index). */
async function dropTextIndex(db: Db, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await db.executeQuery(CompiledQuery.raw('drop index task_log_index_words_idx'));
  if (dialect === 'mysql')
    await db.executeQuery(CompiledQuery.raw('alter table task_log_index drop index task_log_index_words_idx'));
}

/** Builds again, as migration 0020 declares it, the index dropTextIndex dropped. */
async function buildTextIndex(db: Db, dialect: Dialect): Promise<void> {
  await db.connection().execute(async (connection) => {
    if (dialect === 'postgres') {
      await connection.executeQuery(CompiledQuery.raw("set maintenance_work_mem = '512MB'"));
      await connection.executeQuery(
        CompiledQuery.raw('create index task_log_index_words_idx on task_log_index using gin (words)'),
      );
    }
    if (dialect === 'mysql') {
      // As in the migration: a FULLTEXT index built without stopwords.
      await connection.executeQuery(CompiledQuery.raw('set session innodb_ft_enable_stopword = off'));
      await connection.executeQuery(
        CompiledQuery.raw('alter table task_log_index add fulltext key task_log_index_words_idx (words)'),
      );
      await connection.executeQuery(CompiledQuery.raw('set session innodb_ft_enable_stopword = on'));
    }
  });
}

/** Search index rows: PostgreSQL makes the tsvectors from one array parameter per column, 50,000 rows a statement. */
async function insertIndexRows(db: Db, dialect: Dialect, rows: IndexedLine[]): Promise<void> {
  if (dialect !== 'postgres') return insertLogIndexRows(db, dialect, rows);
  for (let i = 0; i < rows.length; i += 50_000) {
    const slice = rows.slice(i, i + 50_000);
    await db.executeQuery(
      CompiledQuery.raw(
        "insert into task_log_index (task_id, seq, words) select t, s, to_tsvector('simple', w) from unnest($1::int[], $2::int[], $3::text[]) as u(t, s, w)",
        [slice.map((r) => r.task_id), slice.map((r) => r.seq), slice.map((r) => r.words)],
      ),
    );
  }
}

async function fill(db: Db, dialect: Dialect, options: YearOptions): Promise<GeneratedYear> {
  const random = createRandom(options.seed ?? 2026);
  const end = options.now.getTime();
  const yearStart = end - YEAR_DAYS * DAY_MS;
  const created = iso(yearStart - DAY_MS);

  const adminId = await insertRow(db, dialect, 'users', {
    created,
    username: `year-admin-${random.int(1e9)}`,
    name: 'Year Admin',
    email: `year-admin-${random.int(1e9)}@example.test`,
    password_hash: null,
    admin: 1,
    external: 0,
    alert: 0,
    pro: 0,
  });
  const userIds: number[] = [];
  const tag = random.int(1e9);
  for (let u = 0; u < options.users; u++) {
    userIds.push(
      await insertRow(db, dialect, 'users', {
        created,
        username: `user-${tag}-${u}`,
        name: `User ${u}`,
        email: `user-${tag}-${u}@example.test`,
        password_hash: null,
        admin: 0,
        external: 0,
        alert: 0,
        pro: 0,
      }),
    );
  }

  const projectIds: number[] = [];
  const templateIds: number[][] = [];
  const membersOf: number[][] = [];
  const perProject = Math.max(1, Math.round(options.templates / options.projects));
  for (let p = 0; p < options.projects; p++) {
    const projectId = await insertRow(db, dialect, 'project', {
      name: `Project ${p + 1}`,
      created,
      alert: 0,
      alert_chat: null,
      max_parallel_tasks: 0,
      type: '',
    });
    projectIds.push(projectId);
    const members = userIds.filter(() => random.next() < 0.3);
    membersOf.push(members);
    await insertMany(db, dialect, 'project_user', [
      { project_id: projectId, user_id: adminId, role: 'owner', created },
      ...members.map((user_id, i) => ({
        project_id: projectId,
        user_id,
        role: memberRole(i),
        created,
      })),
    ]);
    const keyIds: number[] = [];
    for (let k = 0; k < 4; k++)
      keyIds.push(
        await insertRow(db, dialect, 'access_key', {
          project_id: projectId,
          name: k === 0 ? 'None' : `Key ${k}`,
          type: 'none',
          secret: null,
          created,
        }),
      );
    const repositoryIds: number[] = [];
    for (let r = 0; r < 2; r++) {
      repositoryIds.push(
        await insertRow(db, dialect, 'repository', {
          project_id: projectId,
          name: `repo-${r}`,
          git_url: `https://git.example.test/p${p}/repo-${r}.git`,
          git_branch: 'main',
          ssh_key_id: keyIds[0]!,
          created,
        }),
      );
    }
    const environmentIds: number[] = [];
    for (let e = 0; e < 2; e++) {
      environmentIds.push(
        await insertRow(db, dialect, 'environment', {
          project_id: projectId,
          name: e === 0 ? 'Empty' : 'Production',
          json: '{"region":"eu-west-1"}',
          env: '{}',
          password: null,
          created,
        }),
      );
    }
    const inventoryIds: number[] = [];
    for (let i = 0; i < 3; i++) {
      const hosts = Array.from({ length: 5 }, (_, h) => `host-${i}-${h}.example.test`).join('\n');
      inventoryIds.push(
        await insertRow(db, dialect, 'inventory', {
          project_id: projectId,
          name: `Inventory ${i}`,
          type: 'static',
          inventory: `[all]\n${hosts}\n`,
          ssh_key_id: keyIds[1] ?? null,
          become_key_id: null,
          repository_id: null,
          template_id: null,
          created,
        }),
      );
    }
    const ids: number[] = [];
    const count =
      p === options.projects - 1 ? Math.max(1, options.templates - perProject * (options.projects - 1)) : perProject;
    for (let t = 0; t < count; t++) {
      const app = t % 3 === 0 ? 'bash' : 'ansible';
      ids.push(
        await insertRow(db, dialect, 'template', {
          project_id: projectId,
          name: `Template ${t + 1}`,
          description: '',
          app,
          type: '',
          playbook: app === 'bash' ? `scripts/job-${t}.sh` : `playbooks/site-${t}.yml`,
          inventory_id: app === 'ansible' ? inventoryIds[t % inventoryIds.length]! : null,
          repository_id: repositoryIds[t % 2]!,
          environment_id: environmentIds[t % 2]!,
          view_id: null,
          arguments: null,
          allow_override_args_in_task: 0,
          allow_override_branch_in_task: 0,
          allow_parallel_tasks: 1,
          suppress_success_alerts: 0,
          start_version: null,
          build_template_id: null,
          autorun: 0,
          git_branch: null,
          survey_vars: '[]',
          task_params: '{}',
          created,
        }),
      );
    }
    templateIds.push(ids);
    await insertMany(
      db,
      dialect,
      'schedule',
      ids
        .filter((_, t) => t % 4 === 0)
        .map((template_id, s) => ({
          project_id: projectId,
          template_id,
          name: `Nightly ${s + 1}`,
          cron_format: `${s % 60} 2 * * *`,
          active: 1,
          repository_id: null,
          last_commit_hash: null,
          next_run: null,
          task_params: '{}',
          created,
        })),
    );
    await insertMany(
      db,
      dialect,
      'integration',
      ids
        .filter((_, t) => t % 5 === 1)
        .map((template_id, i) => ({
          project_id: projectId,
          template_id,
          name: `Webhook ${i + 1}`,
          auth_method: '',
          auth_header: '',
          auth_secret_id: null,
          searchable: 0,
          task_params: '{}',
          created,
        })),
    );
  }

  // Tasks, in the order they were created over the year.
  const lineBudget = options.lines;
  const meanLines = options.tasks > 0 ? lineBudget / options.tasks : 0;
  const counters = new Map<string, Insertable<TaskStatDayTable>>();
  let linesWritten = 0;
  let linesPending: Promise<void> = Promise.resolve();
  let tasksWritten = 0;
  const spacing = (end - yearStart) / Math.max(1, options.tasks);
  const openFrom = options.tasks - OPEN_TASKS.waiting - OPEN_TASKS.running;
  for (let first = 0; first < options.tasks; first += TASK_ROUND) {
    const round = Math.min(TASK_ROUND, options.tasks - first);
    const rows: Insertable<TaskTable>[] = [];
    for (let n = first; n < first + round; n++) {
      const p = random.skewed(projectIds.length);
      const projectId = projectIds[p]!;
      const templates = templateIds[p]!;
      const templateId = templates[random.skewed(templates.length)]!;
      const members = membersOf[p]!;
      const origin = random.next();
      const userId = origin < 0.7 ? (members.length > 0 ? members[random.int(members.length)]! : adminId) : null;
      const createdAt = yearStart + n * spacing + random.next() * spacing * 0.5;
      const roll = random.next();
      const status =
        n >= openFrom
          ? n - openFrom < OPEN_TASKS.waiting
            ? 'waiting'
            : 'running'
          : roll < 0.85
            ? 'success'
            : roll < 0.95
              ? 'error'
              : roll < 0.99
                ? 'stopped'
                : 'rejected';
      const finished = status !== 'waiting' && status !== 'running';
      const started = status === 'waiting' ? null : createdAt + 200 + random.int(2000);
      // Most logs are short, a few are long: the mean stays at lines / tasks.
      const lines =
        status === 'waiting'
          ? 0
          : random.next() < 0.01
            ? Math.round(meanLines * 40)
            : Math.round(meanLines * 0.6 * (0.5 + random.next()));
      rows.push({
        project_id: projectId,
        template_id: templateId,
        status,
        user_id: userId,
        integration_id: null,
        schedule_id: null,
        message: origin < 0.7 ? `Deploy ${n}` : '',
        commit_hash: null,
        commit_message: '',
        build_task_id: null,
        version: null,
        created: iso(createdAt),
        start: started === null ? null : iso(started),
        end: finished && started !== null ? iso(started + 5_000 + random.int(120_000)) : null,
        environment: '{}',
        secret: null,
        arguments: null,
        git_branch: null,
        inventory_id: null,
        params: '{}',
        playbook: '',
        runner_id: null,
        node_id: null,
        pid: null,
        output_lines: lines,
        log_indexed: options.searchIndex && finished ? lines : 0,
        runner_log_offset: 0,
      });
    }
    await insertMany(db, dialect, 'task', rows);
    const inserted = await db
      .selectFrom('task')
      .select(['id', 'project_id', 'template_id', 'user_id', 'created', 'status', 'output_lines', 'start'])
      .orderBy('id', 'desc')
      .limit(round)
      .execute();
    inserted.reverse();

    for (const row of countStatDeltas(inserted.map((task) => ({ task, sign: 1 as const })))) {
      const key = `${row.template_id}|${row.user_id}|${row.created_day}|${row.status}`;
      const counter = counters.get(key);
      if (counter) counter.task_count += row.task_count;
      else counters.set(key, row);
    }
    await insertMany(
      db,
      dialect,
      'event',
      inserted.map((task) => ({
        created: task.created,
        user_id: task.user_id,
        project_id: task.project_id,
        object_id: task.id,
        object_type: 'task',
        object_name: '',
        description: `Task ${task.id} queued`,
      })),
    );

    let output: { task_id: number; seq: number; time: string; output: string }[] = [];
    let indexed: IndexedLine[] = [];
    const write = (lines: typeof output, words: IndexedLine[]) => async () => {
      await insertMany(db, dialect, 'task_output', lines);
      await insertIndexRows(db, dialect, words);
    };
    for (const task of inserted) {
      const startedAt = task.start ? Date.parse(task.start) : 0;
      const index = options.searchIndex && task.status !== 'waiting' && task.status !== 'running';
      for (let seq = 0; seq < task.output_lines; seq++) {
        const text =
          seq % 5 === 0
            ? `TASK [deploy : step ${seq}] ******************************`
            : `ok: [host-${seq % 5}.example.test] => (item=${seq})`;
        output.push({ task_id: task.id, seq, time: iso(startedAt + seq * 7), output: text });
        if (index) indexed.push({ task_id: task.id, seq, words: toIndexedWords(text) });
        if (output.length >= 50_000) {
          // The next lines are made while the store writes these (a second connection, except on SQLite).
          await linesPending;
          linesPending = write(output, indexed)();
          linesWritten += output.length;
          output = [];
          indexed = [];
        }
      }
    }
    await linesPending;
    linesPending = write(output, indexed)();
    linesWritten += output.length;
    tasksWritten += round;
    options.onProgress?.(`${tasksWritten} tasks, ${linesWritten} lines`);
  }
  await linesPending;
  await insertMany(db, dialect, 'task_stat_day', [...counters.values()]);
  return { projectIds, templateIds, userIds, adminId, taskCount: tasksWritten, lineCount: linesWritten };
}
