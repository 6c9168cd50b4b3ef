import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { KeyboardEvent, WheelEvent } from 'react';
import { useTranslation } from 'react-i18next';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Fab from '@mui/material/Fab';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { ANSI_BACKGROUND_PALETTE, ANSI_PALETTE, ansiClassName, parseAnsi } from '../log/ansi.ts';
import type { TaskLogSession } from '../log/log-session.ts';
import { computeWindow, isAtBottom } from '../log/windowing.ts';

/** Every log line is exactly this tall, which is what makes the windowing arithmetic exact. */
const LOG_LINE_HEIGHT = 20;
/** Lines rendered beyond each edge of the viewport. */
const OVERSCAN = 40;
/** Scrolling through unloaded lines asks for them once the scrollbar rests this long. */
const LOAD_DELAY_MS = 60;
const LOG_BACKGROUND = '#0d1117';
const LOG_FOREGROUND = '#c9d1d9';
const TIME_COLOUR = '#6e7681';

const SCROLL_UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

const pad = (n: number) => String(n).padStart(2, '0');
function formatClock(ms: number | undefined): string {
  if (ms === undefined || Number.isNaN(ms)) return '';
  const date = new Date(ms);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

const LogRow = memo(function LogRow({ output, time }: { output: string | undefined; time: number | undefined }) {
  if (output === undefined) return <div className="log-line log-line--pending" />;
  return (
    <div className="log-line">
      <span className="log-time">{formatClock(time)}</span>
      <span className="log-text">
        {parseAnsi(output).map((segment, index) => {
          const className = ansiClassName(segment);
          return className ? (
            <span key={index} className={className}>
              {segment.text}
            </span>
          ) : (
            segment.text
          );
        })}
      </span>
    </div>
  );
});

const ansiStyles = Object.fromEntries([
  ...ANSI_PALETTE.map((colour, index) => [`& .ansi-fg-${index}`, { color: colour }]),
  ...ANSI_BACKGROUND_PALETTE.map((colour, index) => [`& .ansi-bg-${index}`, { backgroundColor: colour }]),
  ['& .ansi-bold', { fontWeight: 700 }],
  ['& .ansi-dim', { opacity: 0.7 }],
  ['& .ansi-italic', { fontStyle: 'italic' }],
  ['& .ansi-underline', { textDecoration: 'underline' }],
]);

interface TaskLogViewProps {
  session: TaskLogSession;
  /** Shown while the log has no line. */
  emptyText: string;
}

/**
 * The task log: a windowed list with a fixed line height, so a log of any length renders only the
 * lines on screen. It opens at the end and follows the tail until the user scrolls up, then keeps
 * the user's position; "Jump to bottom" resumes following.
 */
export function TaskLogView({ session, emptyText }: TaskLogViewProps) {
  const { t } = useTranslation();
  useSyncExternalStore(session.subscribe, session.getVersion);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(0);
  // Every log opens at its end, where a running task writes and a finished one tells its result.
  const [follow, setFollow] = useState(true);
  const programmaticTop = useRef<number | null>(null);

  const { buffer } = session;
  const count = buffer.length;
  const view = computeWindow({ scrollTop, viewportHeight, lineHeight: LOG_LINE_HEIGHT, count, overscan: OVERSCAN });
  const atBottom = isAtBottom(scrollTop, viewportHeight, view.scrollHeight, LOG_LINE_HEIGHT);

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return undefined;
    setViewportHeight(scroller.clientHeight);
    const observer = new ResizeObserver(() => setViewportHeight(scroller.clientHeight));
    observer.observe(scroller);
    return () => observer.disconnect();
  }, []);

  // Following: after every change of length or size, the end stays in view before the browser paints.
  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!follow || !scroller) return;
    const bottom = Math.max(0, view.scrollHeight - scroller.clientHeight);
    if (Math.abs(scroller.scrollTop - bottom) > 1) {
      scroller.scrollTop = bottom;
      programmaticTop.current = scroller.scrollTop;
    }
    setScrollTop(scroller.scrollTop);
  }, [follow, view.scrollHeight, viewportHeight]);

  // Lines on screen that are not loaded yet are asked for once scrolling pauses.
  const { firstVisible, endVisible } = view;
  useEffect(() => {
    if (endVisible <= firstVisible) return undefined;
    if (buffer.isLoaded(firstVisible, endVisible)) return undefined;
    const timer = setTimeout(
      () => session.ensure(Math.max(0, firstVisible - OVERSCAN), endVisible + OVERSCAN),
      LOAD_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [session, buffer, firstVisible, endVisible, count]);

  const onScroll = useCallback(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const top = scroller.scrollTop;
    setScrollTop(top);
    const programmatic = programmaticTop.current !== null && Math.abs(top - programmaticTop.current) <= 1;
    programmaticTop.current = null;
    if (programmatic) return;
    setFollow(isAtBottom(top, scroller.clientHeight, scroller.scrollHeight, LOG_LINE_HEIGHT));
  }, []);

  // Scrolling up by wheel or key stops following at once, even while lines pour in.
  const onWheel = useCallback((event: WheelEvent) => {
    if (event.deltaY < 0) setFollow(false);
  }, []);
  const onKeyDown = useCallback((event: KeyboardEvent) => {
    if (SCROLL_UP_KEYS.has(event.key)) setFollow(false);
  }, []);

  const rows = [];
  for (let seq = view.start; seq < view.end; seq++)
    rows.push(<LogRow key={seq} output={buffer.getOutput(seq)} time={buffer.getTime(seq)} />);

  return (
    <Box
      sx={{
        position: 'relative',
        flex: 1,
        minHeight: 0,
        display: 'flex',
        flexDirection: 'column',
        bgcolor: LOG_BACKGROUND,
      }}
    >
      <Box sx={{ height: 2, flex: 'none' }}>
        {session.loading ? <LinearProgress sx={{ height: 2 }} aria-label={t('taskLog.loading')} /> : null}
      </Box>
      {session.error ? (
        <Alert
          severity="error"
          sx={{ borderRadius: 0 }}
          action={
            <Button color="inherit" size="small" onClick={() => session.retry()}>
              {t('taskLog.retry')}
            </Button>
          }
        >
          {t('taskLog.loadFailed', { message: getErrorMessage(session.error) })}
        </Alert>
      ) : null}
      <Box
        ref={scrollerRef}
        role="log"
        aria-live="off"
        aria-label={t('taskLog.output')}
        tabIndex={0}
        onScroll={onScroll}
        onWheel={onWheel}
        onKeyDown={onKeyDown}
        data-line-count={count}
        sx={{
          flex: 1,
          minHeight: 0,
          overflow: 'auto',
          overflowAnchor: 'none',
          color: LOG_FOREGROUND,
          fontFamily: '"JetBrains Mono", "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace',
          fontSize: 13,
          lineHeight: `${LOG_LINE_HEIGHT}px`,
          outline: 'none',
          '&:focus-visible': { boxShadow: 'inset 0 0 0 2px #58a6ff' },
          '& .log-line': { display: 'flex', height: LOG_LINE_HEIGHT, whiteSpace: 'pre', tabSize: 8 },
          '& .log-time': {
            position: 'sticky',
            left: 0,
            flex: 'none',
            width: { xs: 0, sm: 76 },
            overflow: 'hidden',
            pl: { xs: 0, sm: 1.5 },
            color: TIME_COLOUR,
            bgcolor: LOG_BACKGROUND,
            userSelect: 'none',
          },
          '& .log-text': { pl: 1.5, pr: 2 },
          ...ansiStyles,
        }}
      >
        <div style={{ height: view.scrollHeight, position: 'relative', minWidth: '100%' }}>
          <div style={{ position: 'absolute', top: view.offsetTop, left: 0, minWidth: '100%', width: 'max-content' }}>
            {rows}
          </div>
        </div>
      </Box>
      {count === 0 && !session.loading && !session.error ? (
        <Typography
          sx={{
            position: 'absolute',
            inset: 0,
            display: 'grid',
            placeItems: 'center',
            color: TIME_COLOUR,
            pointerEvents: 'none',
          }}
        >
          {emptyText}
        </Typography>
      ) : null}
      {!follow && !atBottom && count > 0 ? (
        <Fab
          variant="extended"
          size="small"
          color="primary"
          onClick={() => setFollow(true)}
          sx={{ position: 'absolute', right: 24, bottom: 16, textTransform: 'none' }}
        >
          <ArrowDownwardIcon fontSize="small" sx={{ mr: 0.5 }} />
          {t('taskLog.jumpToBottom')}
        </Fab>
      ) : null}
    </Box>
  );
}
