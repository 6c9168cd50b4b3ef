import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { TASK_PARAM } from '../../../lib/paths.ts';

/** The query parameter that opens a task's log over the current page. */
export { TASK_PARAM };

/** With TASK_PARAM: the 1-based line the log opens at, highlighted. */
export const LINE_PARAM = 'line';
/** Opens the new task dialog of a template over the current page: ?new_task=templateId. */
export const NEW_TASK_PARAM = 'new_task';
/** With NEW_TASK_PARAM: the task being re-run, whose values fill the form. */
export const SOURCE_TASK_PARAM = 'source_task';

/** The search string with some parameters set or (null) removed; '' when none remain. */
export function withSearchParams(search: string, changes: Record<string, string | number | null>): string {
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) params.delete(name);
    else params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Links that open a task's log or a template's new task dialog over the current page. */
export function useTaskLinks() {
  const location = useLocation();
  const taskHref = useCallback(
    (taskId: number) => ({
      pathname: location.pathname,
      search: withSearchParams(location.search, {
        [TASK_PARAM]: taskId,
        [NEW_TASK_PARAM]: null,
        [SOURCE_TASK_PARAM]: null,
      }),
    }),
    [location.pathname, location.search],
  );
  const newTaskHref = useCallback(
    (templateId: number, sourceTaskId?: number) => ({
      pathname: location.pathname,
      search: withSearchParams(location.search, {
        [TASK_PARAM]: null,
        [NEW_TASK_PARAM]: templateId,
        [SOURCE_TASK_PARAM]: sourceTaskId ?? null,
      }),
    }),
    [location.pathname, location.search],
  );
  return { taskHref, newTaskHref };
}
