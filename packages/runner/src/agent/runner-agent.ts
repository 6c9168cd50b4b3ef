import type {
  RunnerJob,
  RunnerJobProgress,
  RunnerReportedStatus,
  RunnerState,
  TaskHostReport,
  TaskOutputs,
  TaskPlan,
} from '@gantry/contract';
import { fitHostReport } from '../host-results.ts';
import { TASK_MARK_VARIABLE, createTaskMark, createTaskMarkScope, killMarkedProcesses } from '../process-sweep.ts';
import { runTask } from '../run-task.ts';
import { TaskStopped } from '../step-runner.ts';
import { prepareWorkRoot } from '../workspace.ts';
import { ServerUnavailable, type RunnerClient } from './runner-client.ts';

interface Job {
  id: number;
  controller: AbortController;
  force: boolean;
  /** Lines not yet confirmed by the server; `offset` is the runner's number of the first one. */
  lines: { time: string; message: string }[];
  offset: number;
  /** Latest status the server has not confirmed yet. */
  status: RunnerReportedStatus | undefined;
  commit: { hash: string; message: string } | undefined;
  /** The ansible results per host, sent with the final status. */
  hosts: TaskHostReport | undefined;
  /** A terraform plan's summary, sent (ahead of its waiting status) until the server confirms it. */
  plan: TaskPlan | undefined;
  /** The outputs the task published, sent with the final status. */
  outputs: TaskOutputs | undefined;
  finished: boolean;
  confirmation?: { resolve(confirmed: boolean): void; reject(error: Error): void };
}

export interface RunnerAgentOptions {
  client: RunnerClient;
  workDir: string;
  baseEnv: Record<string, string>;
  print(line: string): void;
  /** Seconds the server may hold a poll open. */
  pollWaitSeconds?: number;
  killGraceMs?: number;
}

/** What one report carried of a job, to drop once the server confirms it. */
interface SentProgress {
  lines: number;
  status: RunnerReportedStatus | undefined;
  plan: TaskPlan | undefined;
}

const MAX_LINES_PER_REPORT = 5000;
/** Raw text per report: even escaped as JSON it stays well under the server's default body limit (10 MiB). */
const MAX_REPORT_BYTES = 1024 * 1024;
/** A job's host results ride with its final status, beside at most MAX_REPORT_BYTES of lines. */
const MAX_HOSTS_REPORT_BYTES = 6 * 1024 * 1024;
const REPORT_DELAY_MS = 50;
const MAX_BACKOFF_MS = 5000;
const SHUTDOWN_REPORT_MS = 15_000;
/** Jobs finished recently, so a late answer listing them as new does not run them twice. */
const FINISHED_MEMORY = 1000;

function createBackoff() {
  let delay = 0;
  return {
    next(): number {
      delay = delay === 0 ? 250 : Math.min(delay * 2, MAX_BACKOFF_MS);
      return delay;
    },
    reset(): boolean {
      const wasFailing = delay !== 0;
      delay = 0;
      return wasFailing;
    },
  };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * `gantry runner start`: pulls jobs from the server, runs each with the same runner package the server
 * uses, and reports lines and statuses back. Server outages are waited out; nothing is lost because
 * reports are kept until the server confirms them and resending is harmless.
 */
export function createRunnerAgent(options: RunnerAgentOptions) {
  const { print } = options;
  const jobs = new Map<number, Job>();
  const finishedIds: number[] = [];
  const stopping = new AbortController();
  let wakeReporter: (() => void) | undefined;
  let reportScheduled = false;
  let fatal: Error | undefined;
  // The processes of this runner's tasks carry its mark, so a restart after a crash finds those it left.
  const markScope = createTaskMarkScope('runner', options.workDir);

  function kick(): void {
    if (reportScheduled) return;
    reportScheduled = true;
    setTimeout(() => {
      reportScheduled = false;
      wakeReporter?.();
    }, REPORT_DELAY_MS);
  }

  function abortJob(job: Job, force: boolean): void {
    job.force ||= force;
    job.controller.abort();
    job.confirmation?.reject(new TaskStopped());
  }

  function startJob({ id, spec }: RunnerJob): void {
    const job: Job = {
      id,
      controller: new AbortController(),
      force: false,
      lines: [],
      offset: 0,
      status: 'running',
      commit: undefined,
      hosts: undefined,
      plan: undefined,
      outputs: undefined,
      finished: false,
    };
    jobs.set(id, job);
    print(`Task ${id} started.`);
    kick();
    void runTask(spec, {
      workRoot: options.workDir,
      baseEnv: { ...options.baseEnv, [TASK_MARK_VARIABLE]: createTaskMark(markScope, id) },
      signal: job.controller.signal,
      forceKill: () => job.force,
      ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
      onLine: (line) => {
        job.lines.push({ time: new Date().toISOString(), message: line });
        kick();
      },
      onCommit: (hash, message) => {
        job.commit = { hash, message };
        kick();
      },
      onStatus: (status) => {
        job.status = status;
        kick();
      },
      onHosts: (report) => {
        job.hosts = fitHostReport(report, MAX_HOSTS_REPORT_BYTES);
        return Promise.resolve();
      },
      onPlan: (plan) => {
        job.plan = plan;
        kick();
        return Promise.resolve();
      },
      onOutputs: (outputs) => {
        job.outputs = outputs;
        return Promise.resolve();
      },
      waitForConfirmation: () =>
        new Promise<boolean>((resolve, reject) => {
          if (job.controller.signal.aborted) reject(new TaskStopped());
          job.confirmation = { resolve, reject };
        }),
    })
      .catch((error: unknown) => {
        job.lines.push({
          time: new Date().toISOString(),
          message: `Failed to run task: ${error instanceof Error ? error.message : String(error)}`,
        });
        return 'error' as const;
      })
      .then((outcome) => {
        job.status = outcome;
        job.finished = true;
        print(`Task ${id} finished: ${outcome}.`);
        kick();
      });
  }

  function forget(job: Job): void {
    jobs.delete(job.id);
    finishedIds.push(job.id);
    if (finishedIds.length > FINISHED_MEMORY) finishedIds.shift();
  }

  function applyState(state: RunnerState): void {
    const listed = new Set<number>();
    for (const job of state.new_jobs) {
      listed.add(job.id);
      if (!jobs.has(job.id) && !finishedIds.includes(job.id) && !stopping.signal.aborted) startJob(job);
    }
    for (const current of state.CurrentJobs) {
      listed.add(current.id);
      const job = jobs.get(current.id);
      if (!job || job.finished) continue;
      if (current.status === 'stopping' || current.status === 'stopped') abortJob(job, current.force);
      else if (current.status === 'confirmed') job.confirmation?.resolve(true);
    }
    // A job the server no longer lists was finished, stopped or given to another runner there.
    for (const job of jobs.values()) if (!listed.has(job.id) && !job.finished) abortJob(job, false);
  }

  async function pollLoop(): Promise<void> {
    const backoff = createBackoff();
    while (!stopping.signal.aborted) {
      try {
        // A stop must not wait for the server to end a long poll: a container stop would kill the runner first.
        const state = await options.client.poll(options.pollWaitSeconds ?? 20, stopping.signal);
        if (backoff.reset()) print('Reconnected to the server.');
        applyState(state);
      } catch (error) {
        if (stopping.signal.aborted) return;
        if (!(error instanceof ServerUnavailable)) throw error;
        const delay = backoff.next();
        print(`Cannot reach the server (${error.message}); retrying in ${delay} ms.`);
        await sleep(delay, stopping.signal);
      }
    }
  }

  function buildReport(): {
    report: RunnerJobProgress[];
    sent: Map<number, SentProgress>;
  } {
    const report: RunnerJobProgress[] = [];
    const sent = new Map<number, SentProgress>();
    let budget = MAX_REPORT_BYTES;
    for (const job of jobs.values()) {
      if (job.lines.length === 0 && job.status === undefined && !job.commit && !job.plan) continue;
      let count = 0;
      for (const line of job.lines) {
        if (count === MAX_LINES_PER_REPORT) break;
        const bytes = Buffer.byteLength(line.message) + 64;
        // The first line of a report always goes, so one line larger than the budget cannot block the job.
        if (bytes > budget && (count > 0 || report.length > 0)) break;
        budget -= bytes;
        count++;
      }
      const records = job.lines.slice(0, count);
      // The server applies a status after the lines it reports; sent ahead of some of them, it would close the task without them.
      const status = count === job.lines.length ? job.status : undefined;
      report.push({
        ID: job.id,
        LogOffset: job.offset,
        LogRecords: records,
        ...(status ? { Status: status } : {}),
        ...(status && job.finished && job.hosts ? { Hosts: job.hosts } : {}),
        ...(status && job.finished && job.outputs ? { Outputs: job.outputs } : {}),
        ...(job.commit ? { Commit: job.commit } : {}),
        ...(job.plan ? { Plan: job.plan } : {}),
      });
      sent.set(job.id, { lines: records.length, status, plan: job.plan });
    }
    return { report, sent };
  }

  async function reportLoop(): Promise<void> {
    const backoff = createBackoff();
    for (;;) {
      const { report, sent } = buildReport();
      if (report.length === 0) {
        if (stopping.signal.aborted && jobs.size === 0) return;
        await new Promise<void>((resolve) => {
          wakeReporter = resolve;
        });
        continue;
      }
      let result;
      try {
        result = await options.client.progress(report);
        backoff.reset();
      } catch (error) {
        if (!(error instanceof ServerUnavailable)) throw error;
        await sleep(backoff.next());
        continue;
      }
      for (const id of result.terminated_jobs) {
        const job = jobs.get(id);
        if (!job) continue;
        if (job.finished) forget(job);
        else {
          abortJob(job, true);
          job.lines = [];
          job.status = undefined;
        }
      }
      for (const [id, what] of sent) {
        const job = jobs.get(id);
        const held = result.log_offsets[String(id)];
        if (!job || held === undefined) continue;
        job.commit = undefined;
        // A plan set while this report was on its way goes with the next one.
        if (job.plan === what.plan) job.plan = undefined;
        if (held > job.offset) {
          job.lines.splice(0, held - job.offset);
          job.offset = held;
        }
        // The status counts as delivered once every line before it is stored and nothing newer replaced it.
        if (what.status !== undefined && job.status === what.status && job.lines.length === 0) {
          job.status = undefined;
          if (job.finished) forget(job);
        }
      }
    }
  }

  return {
    /** Runs until `stop()` (or a fatal answer such as a deleted runner), then waits for running jobs to report. */
    async run(): Promise<void> {
      prepareWorkRoot(options.workDir);
      const left = await killMarkedProcesses({ scope: markScope });
      if (left > 0) print(`Stopped ${left} processes that tasks of an earlier run of this runner left running.`);
      print('Runner started; waiting for tasks.');
      const reporter = reportLoop().catch((error: unknown) => {
        fatal = error instanceof Error ? error : new Error(String(error));
        stopping.abort();
      });
      try {
        await pollLoop();
      } catch (error) {
        fatal = error instanceof Error ? error : new Error(String(error));
        stopping.abort();
      }
      for (const job of jobs.values()) if (!job.finished) abortJob(job, false);
      wakeReporter?.();
      // Final reports get a while to reach the server; a server that stays away does not keep the runner alive.
      const reportsDone = new AbortController();
      await Promise.race([reporter, sleep(SHUTDOWN_REPORT_MS, reportsDone.signal)]);
      // The deadline's timer must not keep the process alive once the reports are through.
      reportsDone.abort();
      // Tasks still within their stop's grace period do not outlive the runner.
      await killMarkedProcesses({ scope: markScope });
      if (fatal) throw fatal;
    },
    stop(): void {
      stopping.abort();
      for (const job of jobs.values()) {
        if (job.finished) continue;
        job.lines.push({
          time: new Date().toISOString(),
          message: 'The runner is shutting down; the task is stopped.',
        });
        abortJob(job, false);
      }
      kick();
    },
  };
}
