import {
  ACTIVE_TASK_STATUSES,
  FINISHED_TASK_STATUSES,
  STOPPABLE_STARTED_STATUSES,
  TASK_STATUS_RULES,
  UNSTARTED_TASK_STATUSES,
  TaskStatus,
  isTaskActive,
  isTaskFinished,
} from '@gantry/contract';
import { describe, expect, it } from 'vitest';

const where = (test: (status: TaskStatus) => boolean) => TaskStatus.options.filter(test).sort();

describe('task status table', () => {
  it('labels each status with its own catalogue key', () => {
    for (const status of TaskStatus.options) expect(TASK_STATUS_RULES[status].labelKey).toBe(`taskStatus.${status}`);
  });

  it('makes success, error, stopped and rejected final, to be re-run: nothing runs after a rejected plan', () => {
    expect([...FINISHED_TASK_STATUSES].sort()).toEqual(['error', 'rejected', 'stopped', 'success']);
    expect(where(isTaskFinished)).toEqual(['error', 'rejected', 'stopped', 'success']);
  });

  it('holds a slot from starting until final, never while queued', () => {
    expect([...ACTIVE_TASK_STATUSES].sort()).toEqual([
      'confirmed',
      'running',
      'starting',
      'stopping',
      'waiting_confirmation',
    ]);
    expect(where(isTaskActive)).toEqual([...ACTIVE_TASK_STATUSES].sort());
    expect(isTaskActive('waiting')).toBe(false);
    expect(isTaskActive('waiting_approval')).toBe(false);
  });

  it('counts the queue and a task held back for approval as not started', () => {
    expect([...UNSTARTED_TASK_STATUSES].sort()).toEqual(['waiting', 'waiting_approval']);
  });

  it('offers stop in every status that is not final, forced once the task is stopping', () => {
    expect(where((s) => TASK_STATUS_RULES[s].stop === 'stop')).toEqual([
      'confirmed',
      'running',
      'starting',
      'waiting',
      'waiting_approval',
      'waiting_confirmation',
    ]);
    expect(where((s) => TASK_STATUS_RULES[s].stop === 'force')).toEqual(['stopping']);
    expect(where((s) => TASK_STATUS_RULES[s].stop === null)).toEqual(where(isTaskFinished));
  });

  it('moves a started task to stopping from every started status but stopping itself', () => {
    expect([...STOPPABLE_STARTED_STATUSES].sort()).toEqual([
      'confirmed',
      'running',
      'starting',
      'waiting_confirmation',
    ]);
  });

  it('offers confirm and reject only while the plan waits for confirmation', () => {
    expect(where((s) => TASK_STATUS_RULES[s].awaitsAnswer)).toEqual(['waiting_confirmation']);
  });

  it('counts success as success, error as failed, and a stop or a rejected plan as stopped, not as a failure', () => {
    const outcomes = Object.fromEntries(TaskStatus.options.map((s) => [s, TASK_STATUS_RULES[s].statOutcome]));
    expect(outcomes).toEqual({
      waiting: null,
      waiting_approval: null,
      starting: null,
      waiting_confirmation: null,
      confirmed: null,
      running: null,
      stopping: null,
      rejected: 'stopped',
      stopped: 'stopped',
      success: 'success',
      error: 'failed',
    });
  });

  it('alerts on success, error and waiting for confirmation, not on a stop or a rejected plan', () => {
    expect(where((s) => TASK_STATUS_RULES[s].alerts)).toEqual(['error', 'success', 'waiting_confirmation']);
  });
});
