import { useCallback, useEffect, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import CloseIcon from '@mui/icons-material/Close';
import DownloadIcon from '@mui/icons-material/Download';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { isTaskFinished, isTerraformApp, type TaskWithTemplate } from '@gantry/contract';
import { getErrorMessage, isApiError } from '../../../lib/api-client.ts';
import { storage } from '../../../lib/storage.ts';
import { rawOutputUrl, taskLogSearchQuery, taskQuery } from '../api/tasks-queries.ts';
import type { LogSearch } from '../api/tasks-queries.ts';
import { ERROR_LINE_PATTERN } from '../log/error-lines.ts';
import { LINE_PARAM, TASK_PARAM, withSearchParams } from './task-links.ts';
import { TaskLogSearchBar } from './task-log-search-bar.tsx';
import { TaskLogSummary } from './task-log-summary.tsx';
import { LOG_POLL_MS, useLogSession } from './use-log-session.ts';
import { LOG_BACKGROUND, TaskLogView } from './task-log-view.tsx';
import { TaskViewLoading } from './task-view-loading.tsx';
import { HostRecapLine } from './host-recap-line.tsx';
import { LogViewToggleRow, type LogDialogView } from './log-view-toggle-row.tsx';
import { PlanRecapLine } from './plan-recap-line.tsx';
import { TaskHostsView } from './task-hosts-view.tsx';
import { TaskPlanView } from './task-plan-view.tsx';
import { RerunFailedHostsButton } from './rerun-failed-hosts-button.tsx';
import { TaskApprovalPanel } from './task-approval-panel.tsx';
import { TaskStatusChip } from '../../../components/task-status-chip.tsx';
import { TooltipIconButton } from '../../../components/tooltip-icon-button.tsx';

/** Name under which the dialog's fullscreen choice is remembered. */
const FULLSCREEN_KEY = 'task_log';

interface TaskLogDialogProps {
  projectId: number;
  taskId: number;
  onClose: () => void;
  /** Opens the new task dialog filled from this task. */
  onRerun: (task: TaskWithTemplate) => void;
  /** Shows the log of another task instead (the one started by "Rerun failed hosts", the one a rerun repeats). */
  onOpenTask: (taskId: number) => void;
  /** 1-based line to open the log at, highlighted (a link to a line: ?t=task&line=n). */
  line?: number | null;
}

const ERROR_SEARCH: LogSearch = { text: ERROR_LINE_PATTERN, caseSensitive: true, regex: true };

/** A line under the task's details that opens a task it repeats (a retry's first try, a rerun's task). */
function RelatedTaskLink({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Link
      component="button"
      type="button"
      variant="body2"
      underline="hover"
      onClick={onClick}
      sx={{ mt: 0.5, display: 'block' }}
    >
      {children}
    </Link>
  );
}

/** The absolute address of the current page with the log of `taskId` open at the 1-based `line`. */
function lineAddress(taskId: number, line: number): string {
  const { origin, pathname, search } = window.location;
  return `${origin}${pathname}${withSearchParams(search, { [TASK_PARAM]: taskId, [LINE_PARAM]: line })}`;
}

export function TaskLogDialog({ projectId, taskId, onClose, onRerun, onOpenTask, line = null }: TaskLogDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [fullscreen, setFullscreen] = useState(() => storage.getDialogFullscreen(FULLSCREEN_KEY));
  // Live updates patch the status as it changes; the poll is the fallback when none come.
  const taskResult = useQuery({
    ...taskQuery(projectId, taskId),
    refetchInterval: (query) => (query.state.data && !isTaskFinished(query.state.data.status) ? LOG_POLL_MS : false),
  });
  const task = taskResult.data;
  const session = useLogSession(projectId, taskId, task);
  const [searchOpen, setSearchOpen] = useState(false);
  const [view, setView] = useState<LogDialogView>('log');
  // A plan that waits for confirmation opens on its list of changes: the decision is taken on it, not on a scrolled log.
  const waitsOnPlan = task?.status === 'waiting_confirmation' && task.plan_recap !== null;
  useEffect(() => {
    setView(waitsOnPlan ? 'plan' : 'log');
  }, [taskId, waitsOnPlan]);
  const [focusSeq, setFocusSeq] = useState<number | null>(line === null ? null : line - 1);
  const [matchSeqs, setMatchSeqs] = useState<ReadonlySet<number>>(new Set());
  const onSearchResults = useCallback((current: number | null, matches: readonly number[]) => {
    setMatchSeqs(new Set(matches));
    if (current !== null) setFocusSeq(current);
  }, []);
  // The first line that looks like an error, found by the server so that it works on a log of any length.
  const running = task ? !isTaskFinished(task.status) : false;
  const firstError = useQuery({
    ...taskLogSearchQuery(projectId, taskId, ERROR_SEARCH, running ? LOG_POLL_MS : false, 1),
    enabled: task !== undefined,
  });
  const firstErrorSeq = firstError.data?.lines[0] ?? null;
  const lineLink = useCallback((seq: number) => lineAddress(taskId, seq + 1), [taskId]);
  const closeSearch = () => {
    setSearchOpen(false);
    setMatchSeqs(new Set());
  };
  // The browser's find cannot see the lines a virtualized log does not render: Ctrl/Cmd+F searches the whole log instead.
  const onDialogKeyDown = (event: KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'f') {
      event.preventDefault();
      setView('log');
      setSearchOpen(true);
    }
  };

  const toggleFullscreen = () => {
    setFullscreen((value) => {
      storage.setDialogFullscreen(FULLSCREEN_KEY, !value);
      return !value;
    });
  };

  // A task that cannot be read (unknown id, no access) has no log to show or download: only the error.
  const unreadable = !task && taskResult.error !== null;

  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen={!unreadable && (fullscreen || isPhone)}
      maxWidth="lg"
      fullWidth
      aria-labelledby="task-log-title"
      onKeyDown={onDialogKeyDown}
      slotProps={{
        paper: { sx: unreadable ? {} : fullscreen || isPhone ? { borderRadius: 0 } : { height: 'calc(100% - 64px)' } },
      }}
    >
      <Box sx={{ px: { xs: 2, sm: 3 }, pt: 1.5, pb: 1.5, borderBottom: 1, borderColor: 'divider' }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minHeight: 40 }}>
          <Typography id="task-log-title" variant="h6" component="h2" noWrap sx={{ fontWeight: 600, minWidth: 0 }}>
            {t('taskLog.title', { id: taskId })}
            {task ? (
              <>
                <Box component="span" sx={{ color: 'text.secondary', mx: 1 }}>
                  ·
                </Box>
                <Link
                  component={RouterLink}
                  to={`/project/${projectId}/templates/${task.template_id}`}
                  underline="hover"
                  color="inherit"
                  onClick={onClose}
                >
                  {task.tpl_alias}
                </Link>
              </>
            ) : null}
          </Typography>
          {task ? <TaskStatusChip status={task.status} /> : null}
          <Box sx={{ flexGrow: 1 }} />
          {unreadable ? null : (
            <TooltipIconButton
              title={t('taskLog.search')}
              onClick={() => {
                setView('log');
                setSearchOpen(true);
              }}
              aria-pressed={searchOpen}
            >
              <SearchIcon />
            </TooltipIconButton>
          )}
          {unreadable ? null : (
            <TooltipIconButton
              title={
                firstErrorSeq !== null
                  ? t('taskLog.jumpToFirstError')
                  : firstError.error
                    ? getErrorMessage(firstError.error)
                    : t('taskLog.noErrorLine')
              }
              label={t('taskLog.jumpToFirstError')}
              onClick={() => setFocusSeq(firstErrorSeq)}
              disabled={firstErrorSeq === null}
            >
              <ErrorOutlineIcon />
            </TooltipIconButton>
          )}
          {unreadable ? null : (
            <Tooltip title={t('taskLog.downloadRaw')}>
              <IconButton
                component="a"
                href={rawOutputUrl(projectId, taskId)}
                download={`task-${taskId}.log`}
                aria-label={t('taskLog.downloadRaw')}
              >
                <DownloadIcon />
              </IconButton>
            </Tooltip>
          )}
          {isPhone || unreadable ? null : (
            <TooltipIconButton
              title={fullscreen ? t('taskLog.exitFullscreen') : t('taskLog.fullscreen')}
              onClick={toggleFullscreen}
              aria-pressed={fullscreen}
            >
              {fullscreen ? <FullscreenExitIcon /> : <FullscreenIcon />}
            </TooltipIconButton>
          )}
          <TooltipIconButton title={t('common.close')} onClick={onClose} edge="end">
            <CloseIcon />
          </TooltipIconButton>
        </Stack>

        {taskResult.error ? (
          <Alert severity="error" sx={{ mt: 1 }}>
            {isApiError(taskResult.error, 404) ? t('taskLog.notFound') : getErrorMessage(taskResult.error)}
          </Alert>
        ) : null}

        {task ? <TaskLogSummary projectId={projectId} task={task} onRerun={onRerun} /> : null}

        {task?.message ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
            {task.message}
          </Typography>
        ) : null}

        {task?.needs_approval ? <TaskApprovalPanel projectId={projectId} task={task} /> : null}

        {task?.retry_of_task_id ? (
          <RelatedTaskLink onClick={() => task.retry_of_task_id && onOpenTask(task.retry_of_task_id)}>
            {t('taskLog.retryOf', { attempt: task.retry_attempt, limit: task.retry_limit, id: task.retry_of_task_id })}
          </RelatedTaskLink>
        ) : null}

        {task?.rerun_of_task_id ? (
          <RelatedTaskLink onClick={() => task.rerun_of_task_id && onOpenTask(task.rerun_of_task_id)}>
            {t('taskLog.rerunOf', { id: task.rerun_of_task_id })}
          </RelatedTaskLink>
        ) : null}

        {task && isTerraformApp(task.tpl_app) && task.plan_recap ? (
          <LogViewToggleRow view={view} other="plan" onChange={setView}>
            <PlanRecapLine recap={task.plan_recap} />
          </LogViewToggleRow>
        ) : null}

        {task?.tpl_app === 'ansible' ? (
          <LogViewToggleRow view={view} other="hosts" onChange={setView}>
            <HostRecapLine recap={task.host_recap} />
            <Box sx={{ flexGrow: 1 }} />
            <RerunFailedHostsButton projectId={projectId} task={task} onStarted={onOpenTask} />
          </LogViewToggleRow>
        ) : null}
      </Box>

      {view === 'hosts' && task && !unreadable ? (
        <TaskHostsView projectId={projectId} taskId={taskId} finished={isTaskFinished(task.status)} />
      ) : null}
      {view === 'plan' && task && !unreadable ? <TaskPlanView projectId={projectId} taskId={taskId} /> : null}
      {view !== 'log' ? null : searchOpen && !unreadable ? (
        <TaskLogSearchBar
          projectId={projectId}
          taskId={taskId}
          refreshMs={task && !isTaskFinished(task.status) ? LOG_POLL_MS : false}
          onResults={onSearchResults}
          onClose={closeSearch}
        />
      ) : null}
      {view !== 'log' || unreadable ? null : session && task ? (
        <TaskLogView
          key={`${projectId}-${taskId}`}
          session={session}
          focusSeq={focusSeq}
          matchSeqs={matchSeqs}
          lineLink={lineLink}
          emptyText={
            task.status === 'waiting'
              ? t('taskLog.waitingForStart')
              : task.status === 'waiting_approval'
                ? t('taskLog.waitingForApproval')
                : isTaskFinished(task.status)
                  ? t('taskLog.noOutput')
                  : t('taskLog.waitingForOutput')
          }
        />
      ) : (
        <TaskViewLoading background={LOG_BACKGROUND} />
      )}
    </Dialog>
  );
}
