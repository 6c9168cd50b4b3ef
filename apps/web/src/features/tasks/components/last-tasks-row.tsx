import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { useTheme } from '@mui/material/styles';
import type { TaskStatus } from '@gantry/contract';
import { DASH, formatDate } from '../../../lib/format-date.ts';
import { LAST_TASKS_ROW_LIMIT, templateTasksQuery } from '../api/tasks-queries.ts';
import { useTaskLinks } from './task-links.ts';
import { TASK_STATUS_COLORS } from '../../../components/task-status-chip.tsx';

function StatusDot({ status }: { status: TaskStatus }) {
  const theme = useTheme();
  const colour = TASK_STATUS_COLORS[status];
  const fill = colour === 'default' ? theme.palette.text.disabled : theme.palette[colour].main;
  const active = status === 'running' || status === 'starting' || status === 'stopping';
  return (
    <Box
      component="span"
      sx={{
        width: 8,
        height: 8,
        borderRadius: '50%',
        bgcolor: fill,
        flex: 'none',
        ...(active
          ? {
              animation: 'gantry-pulse 1.2s ease-in-out infinite',
              '@keyframes gantry-pulse': { '50%': { opacity: 0.35 } },
            }
          : {}),
      }}
    />
  );
}

/** The last 5 tasks of a template in one line: a status dot and the number of each, newest first, each opening its log. */
export function LastTasksRow({ projectId, templateId }: { projectId: number; templateId: number }) {
  const { t, i18n } = useTranslation();
  const { taskHref } = useTaskLinks();
  const tasks = useQuery(templateTasksQuery(projectId, templateId, LAST_TASKS_ROW_LIMIT));

  if (tasks.isPending) return <Skeleton variant="text" width={160} />;
  if (!tasks.data?.length) return <>{DASH}</>;
  return (
    <Stack
      direction="row"
      spacing={1.25}
      useFlexGap
      sx={{ alignItems: 'center', flexWrap: 'wrap' }}
      aria-label={t('taskList.lastTasks')}
    >
      {tasks.data.slice(0, LAST_TASKS_ROW_LIMIT).map((task) => (
        <Tooltip
          key={task.id}
          title={`${t(`taskStatus.${task.status}`)} · ${formatDate(task.start ?? task.created, { locale: i18n.language })}`}
        >
          <Link
            component={RouterLink}
            to={taskHref(task.id)}
            underline="hover"
            color="text.primary"
            aria-label={`#${task.id} ${t(`taskStatus.${task.status}`)}`}
            sx={{
              display: 'inline-flex',
              alignItems: 'center',
              gap: 0.5,
              fontSize: 13,
              fontVariantNumeric: 'tabular-nums',
            }}
          >
            <StatusDot status={task.status} />#{task.id}
          </Link>
        </Tooltip>
      ))}
    </Stack>
  );
}
