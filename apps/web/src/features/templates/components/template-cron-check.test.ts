import { describe, expect, it } from 'vitest';
import type { Schedule } from '@gantry/contract';
import { getCronCheckDefaults, getCronCheckTarget, planCronCheck, validateCronCheck } from './template-cron-check.ts';
import { makeSchedule } from '../../../testing/schedule-fixtures.ts';

/** A schedule of the template that checks repository 2 for commits. */
const schedule = (overrides: Partial<Schedule> = {}): Schedule =>
  makeSchedule({
    id: 7,
    template_id: 3,
    name: 'Deploy on commit',
    cron_format: '*/5 * * * *',
    repository_id: 2,
    ...overrides,
  });
const template = { id: 3, name: 'Deploy' };

describe('the template form cron check', () => {
  it('manages the only schedule when it watches a repository, and leaves others alone', () => {
    expect(getCronCheckTarget([])).toEqual({ kind: 'managed', schedule: undefined });
    expect(getCronCheckTarget([schedule()])).toEqual({ kind: 'managed', schedule: schedule() });
    expect(getCronCheckTarget([schedule({ repository_id: null })])).toMatchObject({
      kind: 'untouched',
      reason: 'plain',
    });
    expect(getCronCheckTarget([schedule(), schedule({ id: 8 })])).toMatchObject({
      kind: 'untouched',
      reason: 'many',
      count: 2,
    });
  });

  it('starts unticked with the template repository and the every-minute interval', () => {
    expect(getCronCheckDefaults(undefined, 4)).toEqual({ enabled: false, repository_id: 4, cron_format: '* * * * *' });
    expect(getCronCheckDefaults(schedule(), 4)).toEqual({
      enabled: true,
      repository_id: 2,
      cron_format: '*/5 * * * *',
    });
  });

  it('requires a repository when ticked', () => {
    expect(validateCronCheck({ enabled: true, repository_id: null, cron_format: '@daily' })).toBe(
      'Repository is required',
    );
    expect(validateCronCheck({ enabled: false, repository_id: null, cron_format: '@daily' })).toBeUndefined();
  });

  it('creates an active schedule named after the template', () => {
    expect(planCronCheck({ enabled: true, repository_id: 2, cron_format: '@hourly' }, undefined, template, 1)).toEqual({
      kind: 'create',
      body: { name: 'Deploy', template_id: 3, cron_format: '@hourly', repository_id: 2, active: true },
    });
  });

  it('updates the interval keeping the schedule name, state and task parameters; unticking deletes it', () => {
    expect(planCronCheck({ enabled: true, repository_id: 2, cron_format: '@daily' }, schedule(), template, 1)).toEqual({
      kind: 'update',
      scheduleId: 7,
      body: {
        id: 7,
        project_id: 1,
        name: 'Deploy on commit',
        template_id: 3,
        cron_format: '@daily',
        repository_id: 2,
        active: false,
        task_params: { message: 'kept' },
      },
    });
    expect(
      planCronCheck({ enabled: true, repository_id: 2, cron_format: '*/5 * * * *' }, schedule(), template, 1),
    ).toEqual({ kind: 'none' });
    expect(
      planCronCheck({ enabled: false, repository_id: 2, cron_format: '*/5 * * * *' }, schedule(), template, 1),
    ).toEqual({ kind: 'delete', scheduleId: 7 });
    expect(
      planCronCheck({ enabled: false, repository_id: 2, cron_format: '*/5 * * * *' }, undefined, template, 1),
    ).toEqual({ kind: 'none' });
  });
});
