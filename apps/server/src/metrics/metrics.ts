import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Clock } from '../clock.ts';
import type { TaskRow } from '../modules/tasks/tasks.table.ts';
import type { MetricsRepository } from './metrics.repository.ts';

/** Seconds: from a few milliseconds (dispatch, API calls) to an hour-long task. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];
const HTTP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export type ScheduleRunResult = 'started' | 'failed' | 'missed';
export type WebhookCallResult = 'started' | 'nothing_started' | 'unknown_alias' | 'failed';

export interface MetricsDeps {
  repository: MetricsRepository;
  clock: Clock;
  runnerOfflineMs: number;
  websocketClients(): number;
}

/**
 * Gantry's Prometheus metrics, in a registry of its own. Counters and histograms are of this
 * process; gauges of tasks and runners are read from the store at each scrape, so every node of a
 * cluster reports the same totals for them.
 */
export function createMetrics(deps: MetricsDeps) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  // Every metric goes into Gantry's registry, never prom-client's global one.
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Counter({ name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
    new Histogram({ name, help, labelNames, buckets, registers: [registry] });

  const httpDuration = histogram(
    'gantry_http_request_duration_seconds',
    'HTTP requests by route pattern, method and status',
    ['method', 'route', 'status'],
    HTTP_BUCKETS,
  );
  const tasksFinished = counter('gantry_tasks_finished_total', 'Tasks that reached a final status on this node', [
    'status',
    'app',
  ]);
  const queueWait = histogram(
    'gantry_task_queue_wait_seconds',
    'Time from a task being created to its start, per project and template',
    ['project_id', 'template_id'],
    DURATION_BUCKETS,
  );
  const runDuration = histogram(
    'gantry_task_run_duration_seconds',
    'Time from a task starting to its end, per project, template and final status',
    ['project_id', 'template_id', 'status'],
    DURATION_BUCKETS,
  );
  const logLines = counter('gantry_log_lines_ingested_total', 'Task output lines stored');
  const scheduleRuns = counter('gantry_schedule_runs_total', 'Due schedule times claimed by this node, by result', [
    'result',
  ]);
  const webhookCalls = counter('gantry_webhook_calls_total', 'Calls of integration aliases, by result', ['result']);
  const storeQueries = counter('gantry_store_queries_total', 'Statements sent to the store, begin and commit included');
  const storeErrors = counter('gantry_store_query_errors_total', 'Store queries that failed');

  new Gauge({
    name: 'gantry_tasks',
    help: 'Unfinished tasks (queued and active) by status and app',
    labelNames: ['status', 'app'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await deps.repository.countUnfinishedTasks())
        this.set({ status: row.status, app: row.app }, row.count);
    },
  });
  new Gauge({
    name: 'gantry_runners',
    help: 'Remote runners by state: alive (active, heard from recently), busy (alive and holding a task), offline',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const now = deps.clock.now().getTime();
      const counts = { alive: 0, busy: 0, offline: 0 };
      for (const runner of await deps.repository.listRunnerLoads()) {
        const alive =
          runner.active === 1 && runner.touched !== null && now - Date.parse(runner.touched) <= deps.runnerOfflineMs;
        if (!alive) counts.offline += 1;
        else {
          counts.alive += 1;
          if (runner.tasks > 0) counts.busy += 1;
        }
      }
      for (const [state, count] of Object.entries(counts)) this.set({ state }, count);
    },
  });
  new Gauge({
    name: 'gantry_websocket_clients',
    help: 'Browsers and clients connected to this node for live updates',
    registers: [registry],
    collect() {
      this.set(deps.websocketClients());
    },
  });

  // Templates rarely change their app; remembering it keeps finished tasks from costing a read each.
  const appOfTemplate = new Map<number, string>();
  async function findApp(templateId: number): Promise<string> {
    let app = appOfTemplate.get(templateId);
    if (app === undefined) {
      app = (await deps.repository.findTemplateApp(templateId)) ?? 'unknown';
      if (appOfTemplate.size > 10_000) appOfTemplate.clear();
      appOfTemplate.set(templateId, app);
    }
    return app;
  }

  const seconds = (from: string | null, to: string | null) =>
    from && to ? Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000) : undefined;

  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    observeHttp(method: string, route: string, status: number, durationSeconds: number): void {
      httpDuration.observe({ method, route, status: String(status) }, durationSeconds);
    },
    async taskFinished(task: TaskRow): Promise<void> {
      const labels = { project_id: String(task.project_id), template_id: String(task.template_id) };
      tasksFinished.inc({ status: task.status, app: await findApp(task.template_id) });
      const waited = seconds(task.created, task.start);
      if (waited !== undefined) queueWait.observe(labels, waited);
      const ran = seconds(task.start, task.end);
      if (ran !== undefined) runDuration.observe({ ...labels, status: task.status }, ran);
    },
    logLinesStored(count: number): void {
      logLines.inc(count);
    },
    scheduleRun(result: ScheduleRunResult): void {
      scheduleRuns.inc({ result });
    },
    webhookCall(result: WebhookCallResult): void {
      webhookCalls.inc({ result });
    },
    storeQuery(result: 'answered' | 'failed'): void {
      storeQueries.inc();
      if (result === 'failed') storeErrors.inc();
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
