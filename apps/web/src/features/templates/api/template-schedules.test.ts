import { describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { json, stubFetch } from '../../../testing/render.tsx';
import { resourceKeys } from '../../../lib/project-resources.ts';
import { templateSchedulesQuery } from './template-schedules.ts';

const schedule = (id: number, templateId: number, cron: string) => ({
  id,
  project_id: 1,
  template_id: templateId,
  tpl_name: `Template ${templateId}`,
  name: `Schedule ${id}`,
  cron_format: cron,
  active: true,
  repository_id: null,
  next_run: null,
  task_params: {},
  type: '',
  run_at: null,
  delete_after_run: false,
});

describe('templateSchedulesQuery', () => {
  it("lists the template's schedules of every kind, and a change to the project's schedules refreshes them", async () => {
    let list = [schedule(1, 5, '0 3 * * *'), schedule(2, 6, '* * * * *')];
    stubFetch({ 'GET /api/project/1/schedules': () => json(200, list) });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
    const observer = new QueryObserver(queryClient, templateSchedulesQuery(1, 5));
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().data?.map((s) => s.id)).toEqual([1]));

    // What the template form does after saving its commit check, and the schedules page after any change.
    list = [...list, schedule(3, 5, '*/5 * * * *')];
    await queryClient.invalidateQueries({ queryKey: resourceKeys.schedules(1) });
    await vi.waitFor(() => expect(observer.getCurrentResult().data?.map((s) => s.id)).toEqual([1, 3]));
    unsubscribe();
  });
});
