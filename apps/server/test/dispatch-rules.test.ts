import { describe, expect, it } from 'vitest';
import { createPlacer } from '../src/modules/runners/runner-placement.ts';
import type { RunnerRow } from '../src/modules/runners/runners.table.ts';
import { canStart, countStarted, installationLimit, loadOf } from '../src/modules/tasks/dispatch-rules.ts';
import type { QueuedTaskRow, StartedTaskCount } from '../src/modules/tasks/tasks.table.ts';

function queued(overrides: Partial<QueuedTaskRow> = {}): QueuedTaskRow {
  return {
    id: 100,
    project_id: 1,
    template_id: 10,
    template_name: 'deploy',
    allow_parallel_tasks: 1,
    max_parallel_tasks: 0,
    ...overrides,
  };
}

/** Started tasks of one project, template and runner: one unless told how many. */
function started(overrides: Partial<StartedTaskCount> = {}): StartedTaskCount {
  return { project_id: 1, template_id: 10, runner_id: null, count: 1, ...overrides };
}

function runner(overrides: Partial<RunnerRow> = {}): RunnerRow {
  return {
    id: 1,
    project_id: null,
    token_hash: 'hash',
    name: 'runner',
    webhook: '',
    max_parallel_tasks: 0,
    active: 1,
    touched: new Date().toISOString(),
    started_at: null,
    created: new Date().toISOString(),
    ...overrides,
  };
}

describe('canStart', () => {
  it('starts a task when nothing is started and nothing limits it', () => {
    expect(canStart(loadOf([]), queued(), installationLimit(0))).toBe('start');
  });

  it('holds every task once the installation has as many started tasks as its limit', () => {
    const load = loadOf([started({ project_id: 2, template_id: 20 }), started({ project_id: 3, template_id: 30 })]);
    expect(canStart(load, queued(), installationLimit(2))).toBe('installation_full');
    expect(canStart(load, queued(), installationLimit(3))).toBe('start');
  });

  it('treats an installation limit of 0 or less as no limit', () => {
    const load = loadOf(Array.from({ length: 500 }, (_, i) => started({ template_id: 1000 + i })));
    expect(canStart(load, queued(), installationLimit(0))).toBe('start');
    expect(canStart(load, queued(), installationLimit(-1))).toBe('start');
  });

  it('holds a task whose project has as many started tasks as its own limit, not those of other projects', () => {
    const load = loadOf([started({ project_id: 1, template_id: 11 }), started({ project_id: 1, template_id: 12 })]);
    expect(canStart(load, queued({ project_id: 1, max_parallel_tasks: 2 }), Infinity)).toBe('project_full');
    expect(canStart(load, queued({ project_id: 1, max_parallel_tasks: 3 }), Infinity)).toBe('start');
    expect(canStart(load, queued({ project_id: 2, template_id: 21, max_parallel_tasks: 1 }), Infinity)).toBe('start');
    expect(canStart(load, queued({ project_id: 1, max_parallel_tasks: 0 }), Infinity)).toBe('start');
  });

  it('adds up started tasks counted together, as the store counts them', () => {
    const load = loadOf([
      started({ count: 2 }),
      started({ template_id: 11, count: 1 }),
      started({ project_id: 2, count: 4 }),
    ]);
    expect(load.total).toBe(7);
    expect(canStart(load, queued({ project_id: 1, template_id: 12, max_parallel_tasks: 3 }), Infinity)).toBe(
      'project_full',
    );
    expect(canStart(load, queued({ project_id: 1, template_id: 12, max_parallel_tasks: 4 }), Infinity)).toBe('start');
    expect(canStart(load, queued({ project_id: 3, template_id: 30 }), 7)).toBe('installation_full');
  });

  it('holds a task of a one-at-a-time template while another task of it is started', () => {
    const load = loadOf([started({ template_id: 10 })]);
    expect(canStart(load, queued({ template_id: 10, allow_parallel_tasks: 0 }), Infinity)).toBe('template_busy');
    expect(canStart(load, queued({ template_id: 10, allow_parallel_tasks: 1 }), Infinity)).toBe('start');
    expect(canStart(load, queued({ template_id: 11, allow_parallel_tasks: 0 }), Infinity)).toBe('start');
  });

  it('counts the tasks a round starts against the limits of the tasks after them', () => {
    const load = loadOf([]);
    const first = queued({ id: 1, template_id: 10, allow_parallel_tasks: 0, max_parallel_tasks: 2 });
    expect(canStart(load, first, 3)).toBe('start');
    countStarted(load, first);
    expect(canStart(load, queued({ id: 2, template_id: 10, allow_parallel_tasks: 0 }), 3)).toBe('template_busy');
    countStarted(load, queued({ id: 3, template_id: 11 }));
    expect(canStart(load, queued({ id: 4, template_id: 12, max_parallel_tasks: 2 }), 3)).toBe('project_full');
    countStarted(load, queued({ id: 5, project_id: 2, template_id: 20 }));
    expect(canStart(load, queued({ id: 6, project_id: 3, template_id: 30 }), 3)).toBe('installation_full');
  });
});

describe('runner placement', () => {
  const alive = () => true;

  it('runs tasks in the server when remote running is off and the project has no runner of its own', () => {
    const place = createPlacer({
      runners: [runner({ id: 1 })],
      active: [],
      useRemoteRunner: false,
      isAlive: alive,
      lastAssigned: new Map(),
    });
    expect(place(queued())).toBe('local');
  });

  it('sends a task to a runner of its project first, then to a global one when remote running is on', () => {
    const runners = [runner({ id: 1 }), runner({ id: 2, project_id: 1, max_parallel_tasks: 1 })];
    const place = createPlacer({ runners, active: [], useRemoteRunner: true, isAlive: alive, lastAssigned: new Map() });
    expect(place(queued())).toBe(2);
    expect(place(queued({ id: 101 }))).toBe(1);
    expect(place(queued({ id: 102, project_id: 5 }))).toBe(1);
  });

  it('keeps a task queued while every runner it may use is at its capacity or silent', () => {
    const runners = [
      runner({ id: 1, max_parallel_tasks: 1 }),
      runner({ id: 2, max_parallel_tasks: 2 }),
      runner({ id: 3, touched: null }),
    ];
    const place = createPlacer({
      runners,
      active: [started({ runner_id: 1 }), started({ runner_id: 2 })],
      useRemoteRunner: true,
      isAlive: (r) => r.touched !== null,
      lastAssigned: new Map(),
    });
    expect(place(queued())).toBe(2);
    expect(place(queued({ id: 101 }))).toBeNull();
  });

  it('counts the started tasks of each runner as the store groups them', () => {
    const place = createPlacer({
      runners: [runner({ id: 1, max_parallel_tasks: 3 }), runner({ id: 2, max_parallel_tasks: 3 })],
      active: [
        started({ runner_id: 1, count: 2 }),
        started({ template_id: 11, runner_id: 1, count: 1 }),
        started({ runner_id: 2, count: 2 }),
      ],
      useRemoteRunner: true,
      isAlive: alive,
      lastAssigned: new Map(),
    });
    expect(place(queued())).toBe(2);
    expect(place(queued({ id: 101 }))).toBeNull();
  });

  it('keeps a task of a project with only busy runners of its own queued when remote running is off', () => {
    const place = createPlacer({
      runners: [runner({ id: 4, project_id: 1, max_parallel_tasks: 1 })],
      active: [started({ runner_id: 4 })],
      useRemoteRunner: false,
      isAlive: alive,
      lastAssigned: new Map(),
    });
    expect(place(queued())).toBeNull();
    expect(place(queued({ project_id: 2 }))).toBe('local');
  });

  it('spreads tasks over equally loaded runners in turn', () => {
    const lastAssigned = new Map<number, number>();
    const runners = [runner({ id: 1 }), runner({ id: 2 }), runner({ id: 3 })];
    const place = createPlacer({ runners, active: [], useRemoteRunner: true, isAlive: alive, lastAssigned });
    expect([1, 2, 3, 4, 5, 6].map((id) => place(queued({ id })))).toEqual([1, 2, 3, 1, 2, 3]);
  });
});
