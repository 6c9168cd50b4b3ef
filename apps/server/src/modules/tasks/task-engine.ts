import type { TaskStatus, TaskUpdateMessage } from '@gantry/contract';
import { ACTIVE_TASK_STATUSES, FINISHED_TASK_STATUSES } from '@gantry/contract';
import {
  TASK_MARK_VARIABLE,
  TaskStopped,
  createTaskMark,
  createTaskMarkScope,
  killMarkedProcesses,
  listMarkedTaskIds,
  PLAN_REJECTED_LINE,
  runTask,
  type TaskOutcome,
} from '@gantry/runner';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Audience, LiveHub } from '../../http/live-hub.ts';
import type { EventsService } from '../events/events.service.ts';
import type { TaskSpecBuilder } from './task-spec-builder.ts';
import type { OpenTaskLog, TaskLog } from './task-log.ts';
import type { QueuedTaskRow, StartedTaskRow, TasksRepository } from './tasks.repository.ts';
import type { TaskRow } from './tasks.table.ts';

interface RunningTask {
  controller: AbortController;
  force: boolean;
  confirmation?: { resolve(confirmed: boolean): void; reject(error: Error): void };
  done: Promise<void>;
}

/**
 * Where tasks run: in this process or on a remote runner. `plan` is asked once per dispatch round and
 * returns the placement of each queued task: 'local', a runner id, or null to keep it queued.
 */
export interface TaskPlacement {
  plan(active: readonly StartedTaskRow[]): Promise<(task: QueuedTaskRow) => number | 'local' | null>;
  /** A task was handed to a runner, or a runner's task changed status (stop, confirm): tell that runner. */
  notify(runnerId: number, taskId: number, change: 'assigned' | 'changed' | 'force_stop'): void;
}

/** What one server process asks of the one that runs a task in-process. */
export type TaskControlAction = 'stop' | 'force_stop' | 'confirm' | 'reject';

/** Reaches the other server processes of a cluster (through Redis). */
interface TaskControl {
  send(taskId: number, action: TaskControlAction): void;
}

export interface TaskEngineDeps {
  /** This server process; recorded on the tasks it runs in-process. */
  nodeId: string;
  /** Set when several server processes share the store. */
  control?: TaskControl;
  placement(): TaskPlacement;
  config: Config;
  tasks: TasksRepository;
  specs: TaskSpecBuilder;
  openLog: OpenTaskLog;
  hub: LiveHub;
  events: EventsService;
  clock: Clock;
  logger: FastifyBaseLogger;
  audienceOf(projectId: number): Promise<Audience>;
  /** What the log's first line says; the dispatcher passes the template name it already read with the queue. */
  describeStart(
    task: TaskRow,
    knownTemplateName?: string,
  ): Promise<{ username: string | null; incomingVersion: string | null; templateName: string }>;
  /** Runs after a task reached its final status (autorun of deploys, alerts); its failures are only logged. */
  onFinished(task: TaskRow): Promise<void>;
  /** Told each time a task (local or on a runner) starts waiting for confirmation (alerts); must not block. */
  onWaitingConfirmation?(taskId: number): void;
}

/** How long tasks may take to stop gracefully when the server itself stops. */
const SHUTDOWN_GRACE_MS = 2500;

const FINAL_LINES: Record<TaskOutcome, string> = {
  success: 'Task finished successfully.',
  error: 'Task failed.',
  stopped: 'Task stopped.',
  rejected: 'Task rejected.',
};

/** The engine's closing line of a task, the same wherever it ran. */
export function finalLine(outcome: TaskOutcome): string {
  return FINAL_LINES[outcome];
}

const STOPPABLE_WHILE_STARTED: readonly TaskStatus[] = ['starting', 'running', 'waiting_confirmation', 'confirmed'];

/**
 * What a task running in this process may end from: besides the started statuses, 'rejected' without
 * an end, the request another server process stored. Whatever the outcome (a confirmation here may
 * lose the race against that rejection and end the task as stopped), the task gets its end.
 */
const ENDABLE_HERE: readonly TaskStatus[] = [...ACTIVE_TASK_STATUSES, 'rejected'];

/** The requests another server process stores as the status of a task running here (see followStoredRequests). */
const STORED_REQUESTS: Partial<Record<TaskStatus, TaskControlAction>> = {
  stopping: 'stop',
  confirmed: 'confirm',
  rejected: 'reject',
};

/** Queue rows read per page in a dispatch round: about twice the free slots (tasks held back by their limits are skipped). */
const WAITING_PAGE_MIN = 16;
const WAITING_PAGE_MAX = 200;

/**
 * Starts waiting tasks as soon as the limits allow (woken by events, never by a polling tick), runs
 * them through the runner, and owns every status change of a started task.
 */
export function createTaskEngine(deps: TaskEngineDeps) {
  const running = new Map<number, RunningTask>();
  let dispatching = false;
  let dispatchAgain = false;
  let closed = false;
  let leftoversEnded = false;
  // Every process of a task carries this installation's mark of it, so a stop, and the recovery after a crash, find them all.
  const markScope = createTaskMarkScope('server', deps.config.data_dir);
  const markOf = (taskId: number) => createTaskMark(markScope, taskId);

  const now = () => toTimestamp(deps.clock.now());

  type TaskRef = Pick<TaskRow, 'id' | 'template_id' | 'project_id' | 'start' | 'end' | 'version'>;

  /**
   * Moves a task to a new status if it is still in one of `from`, and tells the clients. The caller
   * passes the audience when it already knows it (a running task), so hot paths skip the lookup.
   */
  async function setStatus(
    task: TaskRef,
    from: readonly TaskStatus[],
    status: TaskStatus,
    extra: Partial<TaskRow> = {},
    audience?: Audience,
  ): Promise<boolean> {
    const changed = await deps.tasks.transition(task.id, from, { status, ...extra });
    if (!changed) return false;
    Object.assign(task, extra);
    const message: TaskUpdateMessage = {
      type: 'update',
      task_id: task.id,
      template_id: task.template_id,
      project_id: task.project_id,
      status,
      start: task.start,
      end: task.end,
      version: task.version,
    };
    deps.hub.publishUpdate(
      audience ?? (await deps.audienceOf(task.project_id)),
      message,
      FINISHED_TASK_STATUSES.includes(status),
    );
    if (status === 'waiting_confirmation') deps.onWaitingConfirmation?.(task.id);
    return true;
  }

  /** Work the runner's callbacks start without waiting for it; a failure is logged, never left unhandled. */
  function background(work: Promise<unknown>, taskId: number): void {
    work.catch((error: unknown) => deps.logger.error({ err: error, taskId }, 'task bookkeeping failed'));
  }

  /**
   * One dispatch round: counts the started tasks, then walks the queue in order, a page at a time and
   * only while there is room, claiming each task that the limits allow (the claim is a conditional
   * update, so a task starts once even when several rounds or servers race for it).
   */
  async function dispatch(): Promise<void> {
    const active = await deps.tasks.listStarted();
    const perProject = new Map<number, number>();
    const perTemplate = new Map<number, number>();
    const count = (map: Map<number, number>, key: number) => map.set(key, (map.get(key) ?? 0) + 1);
    for (const task of active) {
      count(perProject, task.project_id);
      count(perTemplate, task.template_id);
    }
    let total = active.length;
    const limit = deps.config.max_parallel_tasks > 0 ? deps.config.max_parallel_tasks : Infinity;
    // Most wakes of a busy queue come while it is full: then the queue itself need not be read.
    if (total >= limit) return;
    const placement = deps.placement();
    let place: ((task: QueuedTaskRow) => number | 'local' | null) | undefined;
    // Tasks of one project started in the same round share one membership lookup.
    const audiences = new Map<number, Promise<Audience>>();
    const audienceFor = (projectId: number) => {
      let audience = audiences.get(projectId);
      if (!audience) audiences.set(projectId, (audience = deps.audienceOf(projectId)));
      return audience;
    };
    let afterId = 0;
    for (;;) {
      const pageSize = Math.min(WAITING_PAGE_MAX, Math.max(WAITING_PAGE_MIN, (limit - total) * 2));
      const page = await deps.tasks.listWaiting(afterId, pageSize);
      for (const queued of page) {
        if (closed || total >= limit) return;
        if (queued.max_parallel_tasks > 0 && (perProject.get(queued.project_id) ?? 0) >= queued.max_parallel_tasks)
          continue;
        if (queued.allow_parallel_tasks !== 1 && (perTemplate.get(queued.template_id) ?? 0) > 0) continue;
        place ??= await placement.plan(active);
        const where = place(queued);
        if (where === null) continue;
        // The whole row is read only for a task about to start; it is what the task runs with.
        const task = await deps.tasks.findById(queued.id);
        if (task?.status !== 'waiting') continue;
        const runner = where === 'local' ? { node_id: deps.nodeId } : { runner_id: where };
        const audience = await audienceFor(task.project_id);
        if (!(await setStatus(task, ['waiting'], 'starting', runner, audience))) continue;
        task.status = 'starting';
        total += 1;
        count(perProject, task.project_id);
        count(perTemplate, task.template_id);
        if (where === 'local') start(task, audience, queued.template_name);
        else placement.notify(where, task.id, 'assigned');
      }
      const last = page.at(-1);
      if (page.length < pageSize || !last) return;
      afterId = last.id;
    }
  }

  function start(task: TaskRow, audience: Audience, templateName: string): void {
    const entry: RunningTask = { controller: new AbortController(), force: false, done: Promise.resolve() };
    running.set(task.id, entry);
    entry.done = execute(task, audience, templateName, entry)
      .catch((error: unknown) => deps.logger.error({ err: error, taskId: task.id }, 'task engine failure'))
      .finally(() => {
        running.delete(task.id);
        wake();
      });
  }

  /** Runs a task this round claimed; `task` is its row as claimed, kept up to date by setStatus. */
  async function execute(task: TaskRow, audience: Audience, templateName: string, entry: RunningTask): Promise<void> {
    const log = deps.openLog(task, task.output_lines, audience);
    let outcome: TaskOutcome = 'error';
    try {
      const about = await deps.describeStart(task, templateName);
      log.write(`Task ${task.id} (${about.templateName}) started${about.username ? ` by ${about.username}` : ''}.`);
      await deps.events.record({
        userId: task.user_id,
        projectId: task.project_id,
        objectType: 'task',
        objectId: task.id,
        description: `Task ${task.id} (${about.templateName}) started`,
      });
      if (!(await setStatus(task, ['starting'], 'running', { start: now() }, audience))) {
        outcome = 'stopped';
        return;
      }
      const spec = await deps.specs.build(task, { username: about.username, incomingVersion: about.incomingVersion });
      if (task.secret) await deps.tasks.update(task.id, { secret: null });
      outcome = await runTask(spec, {
        workRoot: deps.config.data_dir,
        baseEnv: { ...deps.config.task_base_env, [TASK_MARK_VARIABLE]: markOf(task.id) },
        signal: entry.controller.signal,
        forceKill: () => entry.force,
        killGraceMs: deps.config.task_kill_grace_seconds * 1000,
        onLine: (line) => log.write(line),
        onProcessStart: (pid) => background(deps.tasks.update(task.id, { pid }), task.id),
        onCommit: (hash, message) =>
          background(deps.tasks.update(task.id, { commit_hash: hash, commit_message: message }), task.id),
        onStatus: (status) =>
          background(
            status === 'waiting_confirmation'
              ? setStatus(task, ['running'], 'waiting_confirmation', {}, audience)
              : setStatus(task, ['confirmed'], 'running', {}, audience),
            task.id,
          ),
        waitForConfirmation: () =>
          new Promise<boolean>((resolve, reject) => {
            if (entry.controller.signal.aborted) reject(new TaskStopped());
            entry.confirmation = { resolve, reject };
          }),
      });
    } catch (error) {
      log.write(`Failed to run task: ${error instanceof Error ? error.message : String(error)}`);
      outcome = 'error';
    } finally {
      await finish(task, outcome, log, audience);
    }
  }

  async function finish(task: TaskRow, outcome: TaskOutcome, log: TaskLog, audience: Audience): Promise<void> {
    log.write(finalLine(outcome));
    await log.flush();
    await settle(task, outcome, audience, ENDABLE_HERE);
  }

  /** Records a started task's final status (wherever it ran) and runs the after-task work once. */
  async function settle(
    task: TaskRow,
    outcome: TaskOutcome,
    audience?: Audience,
    from: readonly TaskStatus[] = ACTIVE_TASK_STATUSES,
  ): Promise<boolean> {
    const status: TaskStatus = outcome;
    if (!(await setStatus(task, from, status, { end: now(), pid: null }, audience))) return false;
    await deps.events.record({
      userId: task.user_id,
      projectId: task.project_id,
      objectType: 'task',
      objectId: task.id,
      description: `Task ${task.id} finished: ${status}`,
    });
    await deps
      .onFinished({ ...task, status })
      .catch((error: unknown) => deps.logger.error({ err: error, taskId: task.id }, 'after-task hook failed'));
    return true;
  }

  /** A task another server process of the cluster runs in-process: only that one can act on it. */
  function runsOnOtherNode(task: TaskRow): boolean {
    return (
      deps.control !== undefined &&
      task.runner_id === null &&
      task.node_id !== null &&
      task.node_id !== deps.nodeId &&
      !running.has(task.id)
    );
  }

  async function answerOnOtherNode(task: TaskRow, answer: 'confirmed' | 'rejected'): Promise<boolean> {
    if (!(await setStatus(task, ['waiting_confirmation'], answer))) return false;
    deps.control?.send(task.id, answer === 'confirmed' ? 'confirm' : 'reject');
    return true;
  }

  /**
   * Takes the pending confirmation of a task running here, at most once, so that of two answers
   * racing each other only the first counts.
   */
  function takeConfirmation(taskId: number): RunningTask['confirmation'] {
    const entry = running.get(taskId);
    const confirmation = entry?.confirmation;
    if (entry) entry.confirmation = undefined;
    return confirmation;
  }

  /**
   * A confirmation reaches the runner through the task's status at its next poll. A runner's task
   * waiting for confirmation has no process left, so a rejection closes it here; the runner, no
   * longer finding the job in its list, drops it.
   */
  async function answerRemotely(task: TaskRow, answer: 'confirmed' | 'rejected'): Promise<boolean> {
    if (task.runner_id === null || task.status !== 'waiting_confirmation') return false;
    if (answer === 'confirmed') {
      if (!(await setStatus(task, ['waiting_confirmation'], 'confirmed'))) return false;
    } else {
      const audience = await deps.audienceOf(task.project_id);
      const log = deps.openLog(task, task.output_lines, audience);
      log.write(PLAN_REJECTED_LINE);
      log.write(finalLine('rejected'));
      await log.flush();
      if (!(await settle(task, 'rejected', audience, ['waiting_confirmation']))) return false;
    }
    deps.placement().notify(task.runner_id, task.id, 'changed');
    return true;
  }

  /**
   * Ends the processes an earlier process of this installation left on this machine for tasks it no
   * longer runs: a node killed while its task ran comes back after another node closed that task (or
   * so soon that its former self still counts as alive and the task is closed later), and nothing
   * else would ever stop them. Marks are per data directory, which no two live nodes share.
   */
  async function endLeftoverProcesses(): Promise<void> {
    for (const taskId of await listMarkedTaskIds(markScope)) {
      if (running.has(taskId)) continue;
      const row = await deps.tasks.findById(taskId);
      const killed = await killMarkedProcesses({ mark: markOf(taskId) });
      if (killed === 0 || !row) continue;
      deps.logger.warn(
        { taskId, processes: killed },
        'stopped the processes a closed task left running on this machine',
      );
      const log = deps.openLog(row, row.output_lines, await deps.audienceOf(row.project_id));
      log.write('Gantry came back on the machine that ran this task and stopped its processes, still running.');
      await log.flush();
    }
  }

  function wake(): void {
    if (closed) return;
    if (dispatching) {
      dispatchAgain = true;
      return;
    }
    dispatching = true;
    void (async () => {
      try {
        do {
          dispatchAgain = false;
          await dispatch();
        } while (dispatchAgain && !closed);
      } catch (error) {
        deps.logger.error({ err: error }, 'task dispatch failed');
      } finally {
        dispatching = false;
      }
    })();
  }

  /** Carries out what another server process asked of a task running here; the status is already set. */
  function applyControl(taskId: number, action: TaskControlAction): void {
    const entry = running.get(taskId);
    if (!entry) return;
    if (action === 'confirm' || action === 'reject') {
      takeConfirmation(taskId)?.resolve(action === 'confirm');
      return;
    }
    entry.force ||= action === 'force_stop';
    entry.controller.abort();
    entry.confirmation?.reject(new TaskStopped());
  }

  return {
    wake,
    /** Status changes of tasks that run on runners go through the same guard and live updates. */
    transition: setStatus,
    settle: async (task: TaskRow, outcome: TaskOutcome) => {
      const settled = await settle(task, outcome);
      wake();
      return settled;
    },

    /** Stops a task: a queued one at once, a started one by killing its processes (at once when forced). */
    async stop(task: TaskRow, force: boolean): Promise<void> {
      const entry = running.get(task.id);
      if (runsOnOtherNode(task) && task.status !== 'waiting') {
        // If that process is gone, the node sweep closes the task.
        if ((await setStatus(task, STOPPABLE_WHILE_STARTED, 'stopping')) || force)
          deps.control?.send(task.id, force ? 'force_stop' : 'stop');
        return;
      }
      if (!entry && task.runner_id !== null && task.status !== 'starting') {
        // The runner kills the processes and reports the final status; if it is gone, the sweep closes the task.
        const change = force ? 'force_stop' : 'changed';
        if ((await setStatus(task, STOPPABLE_WHILE_STARTED, 'stopping')) || force)
          deps.placement().notify(task.runner_id, task.id, change);
        return;
      }
      if (!entry) {
        await setStatus(task, ['waiting', ...ACTIVE_TASK_STATUSES], 'stopped', { end: now() });
        if (task.runner_id !== null) deps.placement().notify(task.runner_id, task.id, 'changed');
        wake();
        return;
      }
      entry.force ||= force;
      await setStatus(task, STOPPABLE_WHILE_STARTED, 'stopping');
      entry.controller.abort();
      entry.confirmation?.reject(new TaskStopped());
    },

    /**
     * Stops queued tasks only: each moves from waiting to stopped with the same live update as `stop`,
     * and one the dispatcher started meanwhile is left alone. Returns how many were stopped.
     */
    async stopQueued(queued: TaskRow[]): Promise<number> {
      let stopped = 0;
      // A flood of hundreds queued tasks belongs to one or a few projects: one membership read each.
      const audiences = new Map<number, Audience>();
      for (const task of queued) {
        let audience = audiences.get(task.project_id);
        if (!audience) audiences.set(task.project_id, (audience = await deps.audienceOf(task.project_id)));
        if (await setStatus(task, ['waiting'], 'stopped', { end: now() }, audience)) stopped++;
      }
      if (stopped > 0) wake();
      return stopped;
    },

    async confirm(task: TaskRow): Promise<boolean> {
      if (task.runner_id !== null) return answerRemotely(task, 'confirmed');
      if (runsOnOtherNode(task)) return answerOnOtherNode(task, 'confirmed');
      const confirmation = takeConfirmation(task.id);
      if (!confirmation) return false;
      if (!(await setStatus(task, ['waiting_confirmation'], 'confirmed'))) {
        // A stop moved the task on meanwhile, or a rejection through another server process (then it ends as stopped).
        confirmation.reject(new TaskStopped());
        return false;
      }
      confirmation.resolve(true);
      return true;
    },

    /**
     * Rejects a plan: nothing is applied and the task ends as 'rejected'. Here the status is written
     * once, after the log's last lines, like any final status.
     */
    async reject(task: TaskRow): Promise<boolean> {
      if (task.runner_id !== null) return answerRemotely(task, 'rejected');
      if (runsOnOtherNode(task)) return answerOnOtherNode(task, 'rejected');
      const confirmation = takeConfirmation(task.id);
      if (!confirmation) return false;
      confirmation.resolve(false);
      return true;
    },

    applyControl,

    /**
     * Carries out the requests other nodes stored for tasks running here (stop, confirm, reject): the
     * message through Redis is only the fast path, and is lost while Redis is away.
     */
    async followStoredRequests(): Promise<void> {
      if (running.size === 0) return;
      const requested = Object.keys(STORED_REQUESTS) as TaskStatus[];
      const stored = await deps.tasks.listWithStatus([...running.keys()], requested);
      for (const { id, status } of stored) {
        const action = STORED_REQUESTS[status as TaskStatus];
        if (action) applyControl(id, action);
      }
    },

    isRunningHere(taskId: number): boolean {
      return running.has(taskId);
    },

    /**
     * Closes tasks a previous process left started: they cannot be running any more. Waiting tasks
     * stay queued and are dispatched again. In a cluster, tasks of the server processes still alive
     * are theirs and stay.
     */
    async recover(options: { aliveNodes?: ReadonlySet<string> } = {}): Promise<number> {
      let closedCount = 0;
      // Every node beat runs this: the started tasks only, never the queue however long it is.
      for (const task of await deps.tasks.listStarted()) {
        // Runners outlive a server restart; the lost-runner sweep judges their tasks.
        if (running.has(task.id) || task.runner_id !== null) continue;
        if (task.node_id !== null && options.aliveNodes?.has(task.node_id)) continue;
        const row = await deps.tasks.findById(task.id);
        if (!row) continue;
        const log = deps.openLog(row, row.output_lines, await deps.audienceOf(row.project_id));
        const status: TaskStatus = task.status === 'stopping' ? 'stopped' : 'error';
        log.write(
          options.aliveNodes
            ? 'The Gantry server running this task stopped answering; the task can no longer be followed and was closed.'
            : 'Gantry restarted while this task was running; the task can no longer be followed and was closed.',
        );
        // By mark, not by the recorded pid: the leader may be gone while what it started (setsid, double forks) runs on.
        if ((await killMarkedProcesses({ mark: markOf(row.id) })) > 0)
          log.write('Its processes, still running, were stopped.');
        await log.flush();
        if (await setStatus(row, ACTIVE_TASK_STATUSES, status, { end: now() })) closedCount += 1;
      }
      if (!leftoversEnded) {
        leftoversEnded = true;
        await endLeftoverProcesses();
      }
      return closedCount;
    },

    /**
     * Stops every task of this process and waits until each has its final status. Tasks get a short
     * graceful stop, then are killed: a service manager gives the whole server a few seconds.
     */
    async shutdown(): Promise<void> {
      closed = true;
      for (const entry of running.values()) {
        entry.controller.abort();
        entry.confirmation?.reject(new TaskStopped());
      }
      const forceLater = setTimeout(
        () => {
          for (const entry of running.values()) entry.force = true;
        },
        Math.min(SHUTDOWN_GRACE_MS, deps.config.task_kill_grace_seconds * 1000),
      );
      await Promise.all([...running.values()].map((e) => e.done));
      clearTimeout(forceLater);
    },
  };
}

export type TaskEngine = ReturnType<typeof createTaskEngine>;
