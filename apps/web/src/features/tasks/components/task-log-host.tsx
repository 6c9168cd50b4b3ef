import { useCallback } from 'react';
import { useMatch, useSearchParams } from 'react-router';
import { storage } from '../../../lib/storage.ts';
import { NewTaskDialog } from './new-task-dialog.tsx';
import { LINE_PARAM, NEW_TASK_PARAM, SOURCE_TASK_PARAM, TASK_PARAM, withSearchParams } from './task-links.ts';
import { TaskLogDialog } from './task-log-dialog.tsx';

export { NEW_TASK_PARAM, SOURCE_TASK_PARAM, TASK_PARAM } from './task-links.ts';

function toId(value: string | null): number | null {
  const id = Number(value);
  return value !== null && Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * Rendered once by the app shell: ?t=taskId opens that task's log (with &line=n at its 1-based line n) and ?new_task=templateId
 * (with source_task=taskId for a re-run) the new task dialog, over whatever page is showing.
 * Outside project pages the last project is meant.
 */
export function TaskLogHost() {
  const [searchParams, setSearchParams] = useSearchParams();
  const projectMatch = useMatch('/project/:projectId/*');
  const projectId = toId(projectMatch?.params.projectId ?? null) ?? storage.getLastProjectId();
  const taskId = toId(searchParams.get(TASK_PARAM));
  const line = toId(searchParams.get(LINE_PARAM));
  const newTaskTemplateId = toId(searchParams.get(NEW_TASK_PARAM));
  const sourceTaskId = toId(searchParams.get(SOURCE_TASK_PARAM));

  const change = useCallback(
    (changes: Record<string, string | number | null>) =>
      setSearchParams((current) => new URLSearchParams(withSearchParams(current.toString(), changes))),
    [setSearchParams],
  );

  if (projectId === null) return null;
  return (
    <>
      {taskId !== null ? (
        <TaskLogDialog
          key={`${projectId}-${taskId}`}
          projectId={projectId}
          taskId={taskId}
          line={line}
          onClose={() => change({ [TASK_PARAM]: null, [LINE_PARAM]: null })}
          onOpenTask={(id) => change({ [TASK_PARAM]: id, [LINE_PARAM]: null })}
          onRerun={(task) =>
            change({
              [TASK_PARAM]: null,
              [LINE_PARAM]: null,
              [NEW_TASK_PARAM]: task.template_id,
              [SOURCE_TASK_PARAM]: task.id,
            })
          }
        />
      ) : null}
      {newTaskTemplateId !== null ? (
        <NewTaskDialog
          key={`${projectId}-${newTaskTemplateId}-${sourceTaskId ?? ''}`}
          projectId={projectId}
          templateId={newTaskTemplateId}
          sourceTaskId={sourceTaskId ?? undefined}
          onClose={() => change({ [NEW_TASK_PARAM]: null, [SOURCE_TASK_PARAM]: null })}
          onCreated={(id) => change({ [NEW_TASK_PARAM]: null, [SOURCE_TASK_PARAM]: null, [TASK_PARAM]: id })}
        />
      ) : null}
    </>
  );
}
