import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import CloseIcon from '@mui/icons-material/Close';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import InputBase from '@mui/material/InputBase';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { TooltipIconButton } from '../../../components/tooltip-icon-button.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { taskLogSearchQuery } from '../api/tasks-queries.ts';
import type { LogSearch } from '../api/tasks-queries.ts';
import { VERBATIM_INPUT } from '../../../lib/verbatim-input.ts';

const NO_LINES: readonly number[] = [];

/** The buttons that move to the previous and the next match, as Shift+Enter and Enter do. */
const MATCH_STEPS = [
  { by: -1, labelKey: 'taskLog.searchPrevious', icon: <KeyboardArrowUpIcon /> },
  { by: 1, labelKey: 'taskLog.searchNext', icon: <KeyboardArrowDownIcon /> },
] as const;

/** The search's options that are on or off, each with its short mark as editors show it. */
const SEARCH_OPTIONS = [
  { option: 'caseSensitive', value: 'case', labelKey: 'taskLog.searchCase', mark: 'Aa' },
  { option: 'regex', value: 'regex', labelKey: 'taskLog.searchRegex', mark: '.*' },
] as const;

/** Typing pauses this long before the log is searched. */
const TYPING_PAUSE_MS = 250;

interface TaskLogSearchBarProps {
  projectId: number;
  taskId: number;
  /** A running task's log grows: its search is repeated this often (false once it is finished). */
  refreshMs: number | false;
  /** Called with the seq of the current match (null when none) and all matching seqs known. */
  onResults: (current: number | null, matches: readonly number[]) => void;
  onClose: () => void;
}

interface SearchOptionToggleProps {
  value: string;
  label: string;
  selected: boolean;
  onToggle: () => void;
  /** The option's short mark. */
  children: string;
}

/** A search option that is on or off: match case, regular expression. */
function SearchOptionToggle({ value, label, selected, onToggle, children }: SearchOptionToggleProps) {
  return (
    <Tooltip title={label}>
      <ToggleButton
        value={value}
        size="small"
        selected={selected}
        onChange={onToggle}
        aria-label={label}
        sx={{ px: 1, py: 0.25, fontFamily: 'monospace', textTransform: 'none' }}
      >
        {children}
      </ToggleButton>
    </Tooltip>
  );
}

/** The log dialog's search: server-side, so it sees every line of a log the view only partly renders. */
export function TaskLogSearchBar({ projectId, taskId, refreshMs, onResults, onClose }: TaskLogSearchBarProps) {
  const { t } = useTranslation();
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [options, setOptions] = useState({ caseSensitive: false, regex: false });
  const [search, setSearch] = useState<LogSearch>({ text: '', caseSensitive: false, regex: false });
  const [index, setIndex] = useState(0);

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch({ text, ...options });
      setIndex(0);
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, options]);

  const result = useQuery(taskLogSearchQuery(projectId, taskId, search, refreshMs));
  // A stable empty list: a new one each render would report new results each render.
  const lines = search.text && result.data ? result.data.lines : NO_LINES;
  const total = search.text && result.data ? result.data.count : 0;
  const current = lines.length > 0 ? Math.min(index, lines.length - 1) : -1;

  useEffect(() => {
    onResults(current >= 0 ? (lines[current] ?? null) : null, lines);
  }, [current, lines, onResults]);

  useEffect(() => inputRef.current?.focus(), []);

  const step = (by: number) => {
    if (lines.length === 0) return;
    setIndex((current + by + lines.length) % lines.length);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      step(event.shiftKey ? -1 : 1);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };

  const status = result.error
    ? getErrorMessage(result.error)
    : !search.text
      ? ''
      : total === 0
        ? t('taskLog.searchNoMatches')
        : t('taskLog.searchCount', { current: current + 1, total });

  return (
    <Stack
      direction="row"
      spacing={0.5}
      role="search"
      sx={{ alignItems: 'center', px: { xs: 1, sm: 2 }, py: 0.5, borderBottom: 1, borderColor: 'divider' }}
      onKeyDown={onKeyDown}
    >
      <InputBase
        inputRef={inputRef}
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={t('taskLog.searchPlaceholder')}
        inputProps={{ 'aria-label': t('taskLog.search'), maxLength: 500, ...VERBATIM_INPUT }}
        sx={{ flex: 1, minWidth: 0, fontFamily: 'monospace', fontSize: 14 }}
      />
      <Typography
        variant="body2"
        color={result.error ? 'error' : 'text.secondary'}
        role="status"
        noWrap
        sx={{ maxWidth: { xs: 120, sm: 360 } }}
      >
        {status}
      </Typography>
      {SEARCH_OPTIONS.map(({ option, value, labelKey, mark }) => (
        <SearchOptionToggle
          key={value}
          value={value}
          label={t(labelKey)}
          selected={options[option]}
          onToggle={() => setOptions((current) => ({ ...current, [option]: !current[option] }))}
        >
          {mark}
        </SearchOptionToggle>
      ))}
      {MATCH_STEPS.map(({ by, labelKey, icon }) => (
        <TooltipIconButton
          key={labelKey}
          title={t(labelKey)}
          size="small"
          onClick={() => step(by)}
          disabled={lines.length === 0}
        >
          {icon}
        </TooltipIconButton>
      ))}
      <TooltipIconButton title={t('taskLog.searchClose')} size="small" onClick={onClose}>
        <CloseIcon fontSize="small" />
      </TooltipIconButton>
    </Stack>
  );
}
