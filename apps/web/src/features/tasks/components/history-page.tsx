import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { TaskWithTemplate } from '@gantry/contract';
import { DataTable } from '../../../components/data-table.tsx';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { HISTORY_PAGE_SIZE, fetchOlderTasks, lastTasksQuery } from '../api/tasks-queries.ts';
import { StopWaitingButton } from './stop-waiting-button.tsx';
import { useTaskColumns } from './task-columns.tsx';

/** The project's last tasks, 20 per page; rows follow the websocket and new tasks appear by themselves. */
export function HistoryPage() {
  const projectId = useProjectId();
  // Older pages belong to one project: another project starts from its own newest tasks.
  return <ProjectHistory key={projectId} projectId={projectId} />;
}

function ProjectHistory({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const tasks = useQuery(lastTasksQuery(projectId));
  const columns = useTaskColumns({ withTemplate: true, withRerun: false });
  const [older, setOlder] = useState<TaskWithTemplate[]>([]);
  const [reachedEnd, setReachedEnd] = useState(false);
  useKeepRowsLeavingTheNewestPage(tasks.data, setOlder);
  const newest = tasks.data ?? [];
  const newestIds = new Set(newest.map((task) => task.id));
  const rows = tasks.data ? [...newest, ...older.filter((task) => !newestIds.has(task.id))] : undefined;
  const oldestShown = rows?.[rows.length - 1]?.id;
  const loadOlder = useMutation({
    mutationFn: (beforeId: number) => fetchOlderTasks(projectId, beforeId),
    onSuccess: (page) => {
      setOlder((loaded) => [...loaded, ...page]);
      if (page.length < HISTORY_PAGE_SIZE) setReachedEnd(true);
    },
  });
  const mayHaveOlder = newest.length >= HISTORY_PAGE_SIZE && !reachedEnd && oldestShown !== undefined;
  return (
    <Stack spacing={1}>
      <Stack direction="row" justifyContent="flex-end" sx={{ '&:empty': { display: 'none' } }}>
        <StopWaitingButton projectId={projectId} tasks={tasks.data} />
      </Stack>
      <DataTable<TaskWithTemplate>
        aria-label={t('history.title')}
        columns={columns}
        query={{ data: rows, isPending: tasks.isPending, error: tasks.error ?? loadOlder.error }}
        emptyText={t('history.empty')}
      />
      {mayHaveOlder && (
        <Stack direction="row" justifyContent="center">
          <Button
            variant="outlined"
            size="small"
            disabled={loadOlder.isPending}
            onClick={() => loadOlder.mutate(oldestShown)}
          >
            {t('history.loadOlder')}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}

/**
 * Once older pages are shown, a row that new tasks push off the newest page moves to the older rows,
 * so the list stays unbroken between the newest page and the first older one.
 */
function useKeepRowsLeavingTheNewestPage(
  newest: TaskWithTemplate[] | undefined,
  setOlder: (update: (loaded: TaskWithTemplate[]) => TaskWithTemplate[]) => void,
) {
  const previous = useRef<TaskWithTemplate[]>([]);
  useEffect(() => {
    if (!newest) return;
    const stillNewest = new Set(newest.map((task) => task.id));
    const leaving = previous.current.filter((task) => !stillNewest.has(task.id));
    previous.current = newest;
    if (leaving.length === 0) return;
    const leavingIds = new Set(leaving.map((task) => task.id));
    setOlder((loaded) =>
      loaded.length === 0 ? loaded : [...leaving, ...loaded.filter((task) => !leavingIds.has(task.id))],
    );
  }, [newest, setOlder]);
}
