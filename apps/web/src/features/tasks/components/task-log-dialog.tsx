import { useCallback, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import DoNotDisturbIcon from '@mui/icons-material/DoNotDisturb';
import DownloadIcon from '@mui/icons-material/Download';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import ReplayIcon from '@mui/icons-material/Replay';
import SearchIcon from '@mui/icons-material/Search';
import StopCircleOutlinedIcon from '@mui/icons-material/StopCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { isTaskFinished, isTerraformApp, type TaskWithTemplate } from '@gantry/contract';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { getErrorMessage, isApiError } from '../../../lib/api-client.ts';
import { DASH } from '../../../lib/format-date.ts';
import { useLiveEvents } from '../../../lib/live-events.ts';
import { storage } from '../../../lib/storage.ts';
import { fetchTaskOutput, rawOutputUrl, taskLogSearchQuery, taskQuery, useTaskAction } from '../api/tasks-queries.ts';
import type { LogSearch, TaskAction } from '../api/tasks-queries.ts';
import { ERROR_LINE_PATTERN } from '../log/error-lines.ts';
import { TaskLogSession } from '../log/log-session.ts';
import { getCommitSummary, getRerunLabelKey, getTaskButtons, getTaskVersion } from '../task-rules.ts';
import { TaskDate, TaskDuration } from './task-cells.tsx';
import { LINE_PARAM, TASK_PARAM, withSearchParams } from './task-links.ts';
import { TaskLogSearchBar } from './task-log-search-bar.tsx';
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

/** The answers to a task that waits for confirmation: confirming is the emphasised one. */
const ANSWER_BUTTONS = {
  confirm: { variant: 'contained', color: 'success', icon: <CheckIcon /> },
  reject: { variant: 'outlined', color: 'warning', icon: <DoNotDisturbIcon /> },
} as const;

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

/**
 * How long the log of an unfinished task may stay without live lines before the dialog reads its tail
 * from the API, and how often it reads the task's status meanwhile: a task running on another server
 * while Redis is away sends no live events here, and the dialog falls back to polling.
 */
export const LOG_POLL_MS = 3000;

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

/** Keeps the log of one task loaded and fed by the websocket (or, when it stays quiet, by polling) while the dialog shows it. */
function useLogSession(projectId: number, taskId: number, task: TaskWithTemplate | undefined): TaskLogSession | null {
  const live = useLiveEvents();
  const [session, setSession] = useState<TaskLogSession | null>(null);
  const lastLiveAt = useRef(0);

  useEffect(() => {
    const created = new TaskLogSession({
      fetchLines: (offset, limit, signal) => fetchTaskOutput(projectId, taskId, offset, limit, signal),
    });
    setSession(created);
    lastLiveAt.current = Date.now();
    const unsubscribeLines = live.subscribeTaskLog(projectId, taskId, (lines) => {
      lastLiveAt.current = Date.now();
      created.appendLive(lines);
    });
    const unsubscribeReconnect = live.subscribeReconnect(() => void created.syncTail());
    void created.start();
    return () => {
      unsubscribeLines();
      unsubscribeReconnect();
      created.dispose();
    };
  }, [live, projectId, taskId]);

  // Lines written just before the end may reach the store after the socket; read them once the task is over.
  const done = task ? isTaskFinished(task.status) : undefined;
  const wasRunning = useRef(false);
  useEffect(() => {
    if (done === false) wasRunning.current = true;
    if (done && wasRunning.current && session) {
      wasRunning.current = false;
      void session.syncTail();
    }
  }, [done, session]);

  useEffect(() => {
    if (done !== false || !session) return;
    const timer = setInterval(() => {
      if (Date.now() - lastLiveAt.current >= LOG_POLL_MS) void session.syncTail();
    }, LOG_POLL_MS);
    return () => clearInterval(timer);
  }, [done, session]);

  return session;
}

export function TaskLogDialog({ projectId, taskId, onClose, onRerun, onOpenTask, line = null }: TaskLogDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const snackbar = useSnackbar();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [fullscreen, setFullscreen] = useState(() => storage.getDialogFullscreen(FULLSCREEN_KEY));
  // Live updates patch the status as it changes; the poll is the fallback when none come.
  const taskResult = useQuery({
    ...taskQuery(projectId, taskId),
    refetchInterval: (query) => (query.state.data && !isTaskFinished(query.state.data.status) ? LOG_POLL_MS : false),
  });
  const task = taskResult.data;
  const session = useLogSession(projectId, taskId, task);
  const action = useTaskAction(projectId, taskId);
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

  const run = (next: TaskAction) => action.mutate(next, { onError: snackbar.showFailure });
  const buttons = task ? getTaskButtons(task.status) : null;
  const version = task ? getTaskVersion(task) : null;
  const commit = task ? getCommitSummary(task.commit_hash, task.commit_message) : null;
  const busy = action.isPending;
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

        {task && buttons ? (
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
        ) : null}

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
