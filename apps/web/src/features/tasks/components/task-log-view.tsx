import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { KeyboardEvent, MouseEvent, WheelEvent } from 'react';
import { useTranslation } from 'react-i18next';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Fab from '@mui/material/Fab';
import LinearProgress from '@mui/material/LinearProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useElementSize } from '../../../components/use-element-size.ts';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { copyText } from '../../../lib/clipboard.ts';
import {
  ANSI_BACKGROUND_PALETTE,
  ANSI_PALETTE,
  ansiClassName,
  ansiInlineColours,
  parseAnsi,
  stripAnsi,
} from '../log/ansi.ts';
import { splitLinks } from '../log/log-links.ts';
import type { TaskLogSession } from '../log/log-session.ts';
import { computeWindow, isAtBottom } from '../log/windowing.ts';

/** Every log line is exactly this tall, which is what makes the windowing arithmetic exact. */
const LOG_LINE_HEIGHT = 20;
/** Lines rendered beyond each edge of the viewport. */
const OVERSCAN = 40;
/** Scrolling through unloaded lines asks for them once the scrollbar rests this long. */
const LOAD_DELAY_MS = 60;
/** The log's dark background; its loading spinner stands on it too. */
export const LOG_BACKGROUND = '#0d1117';
const LOG_FOREGROUND = '#c9d1d9';
const TIME_COLOUR = '#6e7681';

const SCROLL_UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

const pad = (n: number) => String(n).padStart(2, '0');
function formatClock(ms: number | undefined): string {
  if (ms === undefined || Number.isNaN(ms)) return '';
  const date = new Date(ms);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A segment's text, with its http(s) addresses as links that open in a new tab without access to this page. */
function SegmentText({ text }: { text: string }) {
  const parts = splitLinks(text);
  if (parts.length === 1 && parts[0]?.href === undefined) return text;
  return parts.map((part, index) =>
    part.href ? (
      <a key={index} className="log-link" href={part.href} target="_blank" rel="noopener noreferrer">
        {part.text}
      </a>
    ) : (
      part.text
    ),
  );
}

interface LogRowProps {
  seq: number;
  output: string | undefined;
  time: number | undefined;
  /** The line a search or a link points at. */
  focused: boolean;
  /** Another line matching the search. */
  matched: boolean;
  /** The accessible name of the line's actions button. */
  actionsLabel: string;
  onActions: (seq: number, anchor: HTMLElement) => void;
}

const LogRow = memo(function LogRow({ seq, output, time, focused, matched, actionsLabel, onActions }: LogRowProps) {
  if (output === undefined) return <div className="log-line log-line--pending" />;
  const className = focused ? 'log-line log-line--focus' : matched ? 'log-line log-line--match' : 'log-line';
  const openActions = (event: MouseEvent<HTMLButtonElement>) => onActions(seq, event.currentTarget);
  return (
    <div className={className} aria-current={focused ? 'true' : undefined} data-seq={seq}>
      <span className="log-time">
        <button
          type="button"
          className="log-actions"
          aria-label={actionsLabel}
          aria-haspopup="menu"
          onClick={openActions}
        >
          <MoreVertIcon fontSize="inherit" />
        </button>
        {formatClock(time)}
      </span>
      <span className="log-text">
        {parseAnsi(output).map((segment, index) => {
          const className = ansiClassName(segment);
          const style = ansiInlineColours(segment);
          return className || style ? (
            <span key={index} className={className || undefined} style={style}>
              <SegmentText text={segment.text} />
            </span>
          ) : (
            <SegmentText key={index} text={segment.text} />
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
  /** Seq of the line to scroll to and highlight (a search result or a link to a line). */
  focusSeq?: number | null;
  /** Seqs of the lines matching the search, shown subtly. */
  matchSeqs?: ReadonlySet<number>;
  /** The absolute address that opens this log at a line (for "Copy link to line"). */
  lineLink: (seq: number) => string;
}

const NO_MATCHES: ReadonlySet<number> = new Set();

/**
 * The task log: a windowed list with a fixed line height, so a log of any length renders only the
 * lines on screen. It opens at the end and follows the tail until the user scrolls up, then keeps
 * the user's position; "Jump to bottom" resumes following.
 */
export function TaskLogView({
  session,
  emptyText,
  focusSeq = null,
  matchSeqs = NO_MATCHES,
  lineLink,
}: TaskLogViewProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const [actions, setActions] = useState<{ seq: number; anchor: HTMLElement } | null>(null);
  const onActions = useCallback((seq: number, anchor: HTMLElement) => setActions({ seq, anchor }), []);
  useSyncExternalStore(session.subscribe, session.getVersion);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const { height: viewportHeight } = useElementSize(scrollerRef);
  // Every log opens at its end, where a running task writes and a finished one tells its result.
  const [follow, setFollow] = useState(true);
  const programmaticTop = useRef<number | null>(null);

  const { buffer } = session;
  const count = buffer.length;
  const view = computeWindow({ scrollTop, viewportHeight, lineHeight: LOG_LINE_HEIGHT, count, overscan: OVERSCAN });
  const atBottom = isAtBottom(scrollTop, viewportHeight, view.scrollHeight, LOG_LINE_HEIGHT);

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

  // A focused line is brought to the middle of the view, and following the tail stops so it stays there.
  const focusReady = focusSeq !== null && focusSeq < count;
  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (focusSeq === null || !focusReady || !scroller) return;
    setFollow(false);
    const top = Math.max(0, focusSeq * LOG_LINE_HEIGHT - scroller.clientHeight / 2 + LOG_LINE_HEIGHT / 2);
    scroller.scrollTop = top;
    programmaticTop.current = scroller.scrollTop;
    setScrollTop(scroller.scrollTop);
  }, [focusSeq, focusReady]);

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

  const copy = (text: string, done: string) => {
    setActions(null);
    copyText(text).then(
      () => snackbar.showSuccess(done),
      (error: unknown) => snackbar.showError(t('taskLog.cantCopy', { reason: getErrorMessage(error) })),
    );
  };

  const rows = [];
  for (let seq = view.start; seq < view.end; seq++)
    rows.push(
      <LogRow
        key={seq}
        seq={seq}
        output={buffer.getOutput(seq)}
        time={buffer.getTime(seq)}
        focused={seq === focusSeq}
        matched={matchSeqs.has(seq)}
        actionsLabel={t('taskLog.lineActions', { line: seq + 1 })}
        onActions={onActions}
      />,
    );

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
          '& .log-line--match': { bgcolor: 'rgba(210, 153, 34, 0.14)' },
          '& .log-line--focus': { bgcolor: 'rgba(210, 153, 34, 0.38)', boxShadow: 'inset 3px 0 0 #e3b341' },
          // The sticky time column covers the line's start: the focus bar is drawn on it too.
          '& .log-line--focus .log-time': { boxShadow: 'inset 3px 0 0 #e3b341' },
          '& .log-time': {
            position: 'sticky',
            left: 0,
            flex: 'none',
            width: { xs: 0, sm: 76 },
            overflow: 'hidden',
            pl: { xs: 0, sm: 1.5 },
            display: 'flex',
            alignItems: 'center',
            color: TIME_COLOUR,
            bgcolor: LOG_BACKGROUND,
            userSelect: 'none',
          },
          // The line's actions sit in the gutter before the time, shown on hover and on keyboard focus.
          '& .log-actions': {
            position: 'absolute',
            left: 0,
            width: 12,
            height: LOG_LINE_HEIGHT,
            p: 0,
            border: 0,
            display: 'grid',
            placeItems: 'center',
            fontSize: 14,
            color: LOG_FOREGROUND,
            bgcolor: 'transparent',
            cursor: 'pointer',
            opacity: 0,
          },
          '& .log-line:hover .log-actions, & .log-actions:focus-visible': { opacity: 1 },
          '& .log-actions:focus-visible': { outline: '2px solid #58a6ff', outlineOffset: -2 },
          '& .log-text': { pl: 1.5, pr: 2 },
          '& .log-link': { color: 'inherit', textDecoration: 'underline', textDecorationColor: '#58a6ff' },
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
      <Menu
        anchorEl={actions?.anchor ?? null}
        open={actions !== null}
        onClose={() => setActions(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <MenuItem
          onClick={() => actions && copy(stripAnsi(buffer.getOutput(actions.seq) ?? ''), t('taskLog.lineCopied'))}
        >
          {t('taskLog.copyLine')}
        </MenuItem>
        <MenuItem onClick={() => actions && copy(lineLink(actions.seq), t('taskLog.lineLinkCopied'))}>
          {t('taskLog.copyLineLink')}
        </MenuItem>
      </Menu>
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
