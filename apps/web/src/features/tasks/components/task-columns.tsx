import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import CallSplitIcon from '@mui/icons-material/CallSplit';
import ChatBubbleOutlineIcon from '@mui/icons-material/ChatBubbleOutline';
import ReplayIcon from '@mui/icons-material/Replay';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { isTaskFinished, type TaskWithTemplate } from '@gantry/contract';
import type { Column } from '../../../components/data-table.tsx';
import { DASH } from '../../../lib/format-date.ts';
import { getCommitSummary, getRerunLabelKey, getTaskVersion } from '../task-rules.ts';
import { HostRecapLine } from './host-recap-line.tsx';
import { PlanRecapLine } from './plan-recap-line.tsx';
import { TaskDate, TaskDuration, TaskLink } from './task-cells.tsx';
import { useTaskLinks } from './task-links.ts';
import { TaskStatusChip } from '../../../components/task-status-chip.tsx';
import { paths } from '../../../lib/paths.ts';

/** The task's message, or else the message of the commit it ran. */
function TaskSubtitle({ task }: { task: TaskWithTemplate }) {
  const commit = getCommitSummary(task.commit_hash, task.commit_message);
  if (!task.message && !commit?.message) return null;
  const Icon = task.message ? ChatBubbleOutlineIcon : CallSplitIcon;
  const text = task.message || (commit?.message ?? '');
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', color: 'text.secondary', mt: 0.25, minWidth: 0 }}>
      <Icon sx={{ fontSize: 14, flex: 'none' }} />
      <Typography variant="body2" color="inherit" noWrap title={text}>
        {text}
      </Typography>
    </Stack>
  );
}

function VersionCell({ task }: { task: TaskWithTemplate }) {
  const version = getTaskVersion(task);
  if (!version) return <>{DASH}</>;
  if (version.buildTaskId === null)
    return (
      <Box component="span" sx={{ fontFamily: 'monospace' }}>
        {version.version}
      </Box>
    );
  return <TaskLink taskId={version.buildTaskId} label={version.version} />;
}

function RerunButton({ task }: { task: TaskWithTemplate }) {
  const { t } = useTranslation();
  const { newTaskHref } = useTaskLinks();
  const label = t(getRerunLabelKey(task.tpl_type));
  // On a phone the icon alone leaves the task column its room.
  return (
    <Button
      component={RouterLink}
      to={newTaskHref(task.template_id, task.id)}
      size="small"
      startIcon={<ReplayIcon />}
      disabled={!isTaskFinished(task.status)}
      aria-label={label}
      sx={{ whiteSpace: 'nowrap', minWidth: 0, '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 } } }}
    >
      <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
        {label}
      </Box>
    </Button>
  );
}

interface TaskColumnsOptions {
  /** The history names the template of each task; a template's own list does not. */
  withTemplate: boolean;
  /** A re-run action at the end of each row. */
  withRerun: boolean;
}

/** The columns of task tables: task, version, status, user, start, duration (and re-run). */
export function useTaskColumns({ withTemplate, withRerun }: TaskColumnsOptions): Column<TaskWithTemplate>[] {
  const { t } = useTranslation();
  const columns: Column<TaskWithTemplate>[] = [
    {
      id: 'task',
      header: t('history.task'),
      fill: true,
      render: (task) => (
        <Box sx={{ minWidth: 0 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline' }}>
            <TaskLink taskId={task.id} />
            {withTemplate ? (
              <Link
                component={RouterLink}
                to={paths.template(task.project_id, task.template_id)}
                underline="hover"
                color="text.primary"
                noWrap
              >
                {task.tpl_alias}
              </Link>
            ) : null}
          </Stack>
          {task.rerun_of_task_id ? (
            <Typography variant="caption" color="text.secondary" component="div">
              <TaskLink taskId={task.rerun_of_task_id} label={t('taskLog.rerunOf', { id: task.rerun_of_task_id })} />
            </Typography>
          ) : null}
          {task.workflow_run ? (
            <Typography variant="caption" color="text.secondary" component="div">
              <Link
                component={RouterLink}
                to={paths.workflowRun(task.project_id, task.workflow_run.workflow_id, task.workflow_run.id)}
                underline="hover"
              >
                {t('taskLog.workflowRunStep', { id: task.workflow_run.id, step: task.workflow_run.step })}
              </Link>
            </Typography>
          ) : null}
          {task.retry_of_task_id ? (
            <Typography variant="caption" color="text.secondary" component="div">
              <TaskLink
                taskId={task.retry_of_task_id}
                label={t('taskLog.retryOf', {
                  attempt: task.retry_attempt,
                  limit: task.retry_limit,
                  id: task.retry_of_task_id,
                })}
              />
            </Typography>
          ) : null}
          <TaskSubtitle task={task} />
        </Box>
      ),
    },
    { id: 'version', header: t('history.version'), hideBelow: 'md', render: (task) => <VersionCell task={task} /> },
    {
      id: 'status',
      header: t('history.status'),
      render: (task) => (
        <>
          <TaskStatusChip status={task.status} />
          <HostRecapLine recap={task.host_recap} />
          <PlanRecapLine recap={task.plan_recap} />
        </>
      ),
    },
    {
      id: 'user',
      header: t('history.user'),
      hideBelow: 'md',
      render: (task) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {task.user_name ??
            (task.integration_id ? t('taskLog.integration') : task.schedule_id ? t('taskLog.schedule') : DASH)}
        </Box>
      ),
    },
    { id: 'start', header: t('history.start'), hideBelow: 'sm', render: (task) => <TaskDate value={task.start} /> },
    {
      id: 'duration',
      header: t('history.duration'),
      render: (task) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          <TaskDuration start={task.start} end={task.end} status={task.status} />
        </Box>
      ),
    },
  ];
  if (withRerun)
    columns.push({
      id: 'actions',
      header: '',
      align: 'right',
      width: 1,
      render: (task) => <RerunButton task={task} />,
    });
  return columns;
}
