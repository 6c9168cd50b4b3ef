import { describe, expect, it } from 'vitest';
import { TaskStatus } from '@gantry/contract';
import { getCommitSummary, getRerunLabelKey, getRunLabelKey, getTaskButtons, getTaskVersion } from './task-rules.ts';

describe('getTaskButtons', () => {
  it('offers confirm and reject only while waiting for confirmation', () => {
    for (const status of TaskStatus.options) {
      const buttons = getTaskButtons(status);
      expect(buttons.confirm, status).toBe(status === 'waiting_confirmation');
      expect(buttons.reject, status).toBe(status === 'waiting_confirmation');
    }
  });

  it('offers stop in running, stopping, waiting, waiting_approval, starting, waiting_confirmation and confirmed; a rejected task has ended', () => {
    const stoppable = TaskStatus.options.filter((status) => getTaskButtons(status).stop !== null);
    expect(stoppable.sort()).toEqual([
      'confirmed',
      'running',
      'starting',
      'stopping',
      'waiting',
      'waiting_approval',
      'waiting_confirmation',
    ]);
  });

  it('turns stop into a forced stop once the task is stopping', () => {
    expect(getTaskButtons('stopping').stop).toEqual({ force: true });
    expect(getTaskButtons('running').stop).toEqual({ force: false });
  });

  it('offers re-run for finished tasks only, never next to stop', () => {
    const rerunnable = TaskStatus.options.filter((status) => getTaskButtons(status).rerun);
    expect(rerunnable.sort()).toEqual(['error', 'rejected', 'stopped', 'success']);
    for (const status of TaskStatus.options)
      expect(getTaskButtons(status).rerun && getTaskButtons(status).stop !== null).toBe(false);
  });
});

describe('labels and summaries', () => {
  it('names run and re-run after the template type', () => {
    expect(['', 'build', 'deploy'].map(getRunLabelKey)).toEqual(['tasks.run', 'tasks.build', 'tasks.deploy']);
    expect(['', 'build', 'deploy'].map(getRerunLabelKey)).toEqual(['tasks.rerun', 'tasks.rebuild', 'tasks.redeploy']);
  });

  it('shows the build version of builds and deploys only', () => {
    const base = { version: null, build_task: null, build_task_id: null };
    expect(getTaskVersion({ ...base, tpl_type: '', version: null })).toBeNull();
    expect(getTaskVersion({ ...base, tpl_type: 'build', version: '1.2.3' })).toEqual({
      version: '1.2.3',
      buildTaskId: null,
    });
    expect(getTaskVersion({ ...base, tpl_type: 'deploy', version: '1.2.3', build_task_id: 4 })).toEqual({
      version: '1.2.3',
      buildTaskId: 4,
    });
  });

  it('cuts the commit hash to 10 characters and its message to 50', () => {
    expect(getCommitSummary('0123456789abcdef', 'x'.repeat(80))).toEqual({
      hash: '0123456789',
      message: 'x'.repeat(50),
    });
    expect(getCommitSummary(null, 'message')).toBeNull();
  });
});
