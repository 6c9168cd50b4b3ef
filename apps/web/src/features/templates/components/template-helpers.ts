import { useLocation } from 'react-router';
import { z } from 'zod';
import { TaskStatus } from '@gantry/contract';
import type { Template, TemplateType } from '@gantry/contract';

/** The button that starts a task follows the template type: Run, Build or Deploy. */
export const RUN_LABEL_KEYS: Record<TemplateType, string> = {
  '': 'templates.run',
  build: 'templates.build',
  deploy: 'templates.deploy',
};
export const TYPE_LABEL_KEYS: Record<TemplateType, string> = {
  '': 'templates.types.task',
  build: 'templates.types.build',
  deploy: 'templates.types.deploy',
};

/** The query parameters other screens react to: the task log (?t=) and the new task dialog (?new_task=). */
export const TASK_LOG_PARAM = 't';
export const NEW_TASK_PARAM = 'new_task';

/** What the list shows of a template's newest task. */
const LastTaskSummary = z.object({
  id: z.number(),
  status: TaskStatus,
  user_name: z.string().nullable().optional(),
  start: z.string().nullable().optional(),
  end: z.string().nullable().optional(),
});
export type LastTaskSummary = z.infer<typeof LastTaskSummary>;

export function getLastTask(template: Template): LastTaskSummary | undefined {
  const parsed = LastTaskSummary.safeParse(template.last_task);
  return parsed.success ? parsed.data : undefined;
}

/** The current page with one query parameter set: ?t=12 opens a task's log over whatever is shown. */
export function useHrefWithParam(): (key: string, value: string | number) => string {
  const location = useLocation();
  return (key, value) => {
    const params = new URLSearchParams(location.search);
    params.set(key, String(value));
    return `${location.pathname}?${params.toString()}`;
  };
}

/** The numeric view id of a /views/:viewId/... route, if any. */
export function toViewId(value: string | undefined): number | undefined {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}
