import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import CheckIcon from '@mui/icons-material/Check';
import DoNotDisturbIcon from '@mui/icons-material/DoNotDisturb';
import ReplayIcon from '@mui/icons-material/Replay';
import StopCircleOutlinedIcon from '@mui/icons-material/StopCircleOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TaskWithTemplate } from '@gantry/contract';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { DASH } from '../../../lib/format-date.ts';
import { useTaskAction, type TaskAction } from '../api/tasks-queries.ts';
import { getCommitSummary, getRerunLabelKey, getTaskButtons, getTaskVersion } from '../task-rules.ts';
import { TaskDate, TaskDuration } from './task-cells.tsx';

/** The answers to a task that waits for confirmation: confirming is the emphasised one. */
const ANSWER_BUTTONS = {
  confirm: { variant: 'contained', color: 'success', icon: <CheckIcon /> },
  reject: { variant: 'outlined', color: 'warning', icon: <DoNotDisturbIcon /> },
} as const;

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ lineHeight: 1.4 }}>
        {label}
      </Typography>
      <Typography
        variant="body2"
        component="div"
        sx={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
      >
        {children}
      </Typography>
    </Box>
  );
}

interface TaskLogSummaryProps {
  projectId: number;
  task: TaskWithTemplate;
  /** Opens the new task dialog filled from this task. */
  onRerun: (task: TaskWithTemplate) => void;
}

/** Who started the task, when, for how long, its version and commit; and what can be done with it now. */
export function TaskLogSummary({ projectId, task, onRerun }: TaskLogSummaryProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const action = useTaskAction(projectId, task.id);
  const run = (next: TaskAction) => action.mutate(next, { onError: snackbar.showFailure });
  const buttons = getTaskButtons(task.status);
  const version = getTaskVersion(task);
  const commit = getCommitSummary(task.commit_hash, task.commit_message);
  const busy = action.isPending;

  return (
    <Stack
      direction={{ xs: 'column', md: 'row' }}
      spacing={{ xs: 1.5, md: 2 }}
      sx={{ mt: 1, alignItems: { md: 'flex-end' } }}
    >
      <Box
        sx={{
          flexGrow: 1,
          minWidth: 0,
          display: 'grid',
          gap: { xs: 1, sm: 2 },
          gridTemplateColumns: {
            xs: 'repeat(2, minmax(0, 1fr))',
            sm: 'repeat(auto-fit, minmax(120px, max-content))',
          },
        }}
      >
        <Detail label={t('taskLog.author')}>
          {task.user_name ??
            (task.integration_id ? t('taskLog.integration') : task.schedule_id ? t('taskLog.schedule') : DASH)}
        </Detail>
        <Detail label={t('taskLog.started')}>
          <TaskDate value={task.start} />
        </Detail>
        <Detail label={t('taskLog.duration')}>
          <TaskDuration start={task.start} end={task.end} status={task.status} />
        </Detail>
        {version ? <Detail label={t('taskLog.version')}>{version.version}</Detail> : null}
        {commit ? (
          <Detail label={t('taskLog.commit')}>
            <Box component="span" sx={{ fontFamily: 'monospace' }} title={task.commit_hash ?? undefined}>
              {commit.hash}
            </Box>
            {commit.message ? ` ${commit.message}` : ''}
          </Detail>
        ) : null}
      </Box>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', flex: 'none' }}>
        {(['confirm', 'reject'] as const).map((kind) =>
          buttons[kind] ? (
            <Button
              key={kind}
              variant={ANSWER_BUTTONS[kind].variant}
              color={ANSWER_BUTTONS[kind].color}
              disableElevation
              startIcon={ANSWER_BUTTONS[kind].icon}
              disabled={busy}
              onClick={() => run({ kind })}
            >
              {t(`taskLog.${kind}`)}
            </Button>
          ) : null,
        )}
        {buttons.stop ? (
          <Button
            variant={buttons.stop.force ? 'contained' : 'outlined'}
            color="error"
            disableElevation
            startIcon={
              busy && action.variables?.kind === 'stop' ? (
                <CircularProgress size={16} color="inherit" />
              ) : (
                <StopCircleOutlinedIcon />
              )
            }
            disabled={busy}
            onClick={() => run({ kind: 'stop', force: buttons.stop?.force ?? false })}
          >
            {buttons.stop.force ? t('taskLog.forceStop') : t('taskLog.stop')}
          </Button>
        ) : null}
        {buttons.rerun ? (
          <Button variant="outlined" startIcon={<ReplayIcon />} onClick={() => onRerun(task)}>
            {t(getRerunLabelKey(task.tpl_type))}
          </Button>
        ) : null}
      </Stack>
    </Stack>
  );
}
