import { describe, expect, it } from 'vitest';
import {
  ScheduleFormSchema,
  getFormCron,
  getScheduleFormDefaults,
  toPickerFields,
  toScheduleBody,
} from './schedule-form.ts';
import { makeSchedule } from '../../../testing/schedule-fixtures.ts';

const messages = (value: unknown) =>
  Object.fromEntries(
    (ScheduleFormSchema.safeParse(value).error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
  );

describe('the schedule form', () => {
  it('starts a new schedule at every minute in the timing picker', () => {
    const fields = getScheduleFormDefaults();
    expect(fields.mode).toBe('picker');
    expect(getFormCron(fields)).toBe('* * * * *');
  });

  it('opens a picker-shaped cron in the picker and any other in raw mode', () => {
    expect(getScheduleFormDefaults(makeSchedule()).picker).toMatchObject({
      timing: 'daily',
      minutes: [30],
      hours: [3],
    });
    const raw = getScheduleFormDefaults(makeSchedule({ cron_format: '*/15 9-17 * * 1-5' }));
    expect(raw.mode).toBe('raw');
    expect(getFormCron(raw)).toBe('*/15 9-17 * * 1-5');
    expect(toPickerFields('*/15 9-17 * * 1-5').timing).toBe('');
  });

  it('opens a commit-watching schedule with its repository and interval', () => {
    const fields = getScheduleFormDefaults(makeSchedule({ repository_id: 7, cron_format: '@hourly' }));
    expect(fields).toMatchObject({ run_on_commit: true, repository_id: 7, check_interval: '@hourly' });
    expect(getFormCron(fields)).toBe('@hourly');
  });

  it('validates with the seed messages for each mode', () => {
    expect(messages({ ...getScheduleFormDefaults(), name: ' ' })).toEqual({
      name: 'Name is required',
      template_id: 'Template is required',
    });
    const named = { ...getScheduleFormDefaults(), name: 'n', template_id: 2 };
    expect(messages({ ...named, mode: 'raw', cron_format: '  ' })).toEqual({ cron_format: 'Cron required' });
    expect(messages({ ...named, picker: toPickerFields('@daily') })).toEqual({ 'picker.timing': 'Timing is required' });
    expect(messages({ ...named, run_on_commit: true })).toEqual({ repository_id: 'Repository is required' });
  });

  it('keeps the active state and task parameters of an edited schedule; a new one is active', () => {
    const fields = { ...getScheduleFormDefaults(makeSchedule()), name: ' Nightly build ' };
    expect(toScheduleBody(fields, 1, makeSchedule())).toEqual({
      id: 5,
      project_id: 1,
      active: false,
      task_params: { message: 'kept' },
      name: 'Nightly build',
      template_id: 2,
      cron_format: '30 3 * * *',
      repository_id: null,
    });
    expect(
      toScheduleBody(
        { ...getScheduleFormDefaults(), name: 'n', template_id: 2, run_on_commit: true, repository_id: 7 },
        1,
      ),
    ).toMatchObject({
      active: true,
      cron_format: '* * * * *',
      repository_id: 7,
    });
  });

  it('starts a workflow with its variables instead of a template, and checks them', () => {
    const fields = {
      ...getScheduleFormDefaults(),
      name: 'Release',
      target: 'workflow' as const,
      workflow_id: 4,
      workflow_variables: '{"version": "1.2"}',
    };
    expect(messages(fields)).toEqual({});
    expect(toScheduleBody(fields, 1)).toEqual({
      active: true,
      name: 'Release',
      workflow_id: 4,
      cron_format: '* * * * *',
      repository_id: null,
      task_params: { variables: { version: '1.2' } },
    });
    expect(messages({ ...fields, workflow_id: null, workflow_variables: '{"version": 1}' })).toEqual({
      workflow_id: 'Workflow is required',
      workflow_variables: 'Variables must be a JSON object of strings',
    });
    const opened = getScheduleFormDefaults(
      makeSchedule({ template_id: null, workflow_id: 4, tpl_name: '', task_params: { variables: { version: '2' } } }),
    );
    expect(opened).toMatchObject({ target: 'workflow', workflow_id: 4, workflow_variables: '{"version":"2"}' });
  });
});
