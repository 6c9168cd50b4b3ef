import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Audience, LiveHub, LogLine } from '../../live/live-hub.ts';
import type { LockedTaskState, OutputRecord, TaskOutputRepository } from './task-output.repository.ts';
import type { TaskRow } from './tasks.table.ts';

export interface TaskOutputDeps {
  output: TaskOutputRepository;
  hub: LiveHub;
  clock: Clock;
  audienceOf(projectId: number): Promise<Audience>;
}

type TaskRef = Pick<TaskRow, 'id' | 'project_id'>;

/** Line breaks, other control characters and bidirectional overrides: what could make one line of a log read as another. */
const LINE_FORGING = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A line the server writes into a task's log about the task (who started it, who approved it, why it
 * failed): one plain line whatever the names and reasons in it hold, so none can forge another line.
 */
export function toLogLine(text: string): string {
  return text.replace(LINE_FORGING, ' ');
}

/**
 * Lines written to a task's log outside its open log (a runner's reports, the engine's notes on a task
 * it does not run): numbered by the store, stored, then sent to the project's members.
 */
export function createTaskOutput(deps: TaskOutputDeps) {
  function recordsOf(outputs: readonly string[]): OutputRecord[] {
    const time = toTimestamp(deps.clock.now());
    return outputs.map((output) => ({ time, output: toLogLine(output) }));
  }

  async function publish(task: TaskRef, lines: readonly LogLine[], audience?: Audience): Promise<void> {
    if (lines.length > 0) deps.hub.publishLines(audience ?? (await deps.audienceOf(task.project_id)), task, [...lines]);
  }

  async function append(
    task: TaskRef,
    records: readonly OutputRecord[],
    runnerIndex: number | null,
    audience?: Audience,
  ): Promise<{ runnerLogOffset: number } | undefined> {
    const appended = await deps.output.append(task.id, records, runnerIndex);
    if (appended) await publish(task, appended.stored, audience);
    return appended;
  }

  return {
    /** Sends lines stored in another module's transaction (appendToLockedTask) to the project's members. */
    publish,

    /** Appends a runner's report; undefined when the task no longer exists. */
    appendReport: append,

    /** The stored lines `from <= seq < from + count`, in order. */
    stored: (taskId: number, from: number, count: number) => deps.output.list(taskId, from, count),

    /** Appends lines written now. */
    async write(task: TaskRef, outputs: readonly string[], audience?: Audience): Promise<void> {
      await append(task, recordsOf(outputs), null, audience);
    },

    /**
     * Appends lines written now together with `changes` to the task's row, if `admits` the row as it is
     * under the row's lock; false when it did not (the task moved on first).
     */
    async writeIf(
      task: TaskRef,
      outputs: readonly string[],
      admits: (task: LockedTaskState) => boolean,
      changes: Partial<Omit<TaskRow, 'id'>>,
    ): Promise<boolean> {
      const stored = await deps.output.appendIf(task.id, admits, recordsOf(outputs), changes);
      if (stored) await publish(task, stored);
      return stored !== undefined;
    },
  };
}

export type TaskOutput = ReturnType<typeof createTaskOutput>;
