import type { Schedule } from '@gantry/contract';

/** A schedule as the API returns it (nightly, inactive, on template 2), with the fields a test cares about overridden. */
export function makeSchedule(fields: Partial<Schedule> = {}): Schedule {
  return {
    id: 5,
    project_id: 1,
    template_id: 2,
    tpl_name: 'Deploy',
    name: 'Nightly',
    cron_format: '30 3 * * *',
    active: false,
    repository_id: null,
    next_run: null,
    task_params: { message: 'kept' },
    type: '',
    run_at: null,
    delete_after_run: false,
    ...fields,
  };
}
