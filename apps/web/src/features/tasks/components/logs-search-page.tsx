import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import { FINISHED_TASK_STATUSES, type LogsSearchLine, type LogsSearchTask, type TaskStatus } from '@gantry/contract';
import { OptionalSelect } from '../../../components/optional-select.tsx';
import { TaskStatusChip } from '../../../components/task-status-chip.tsx';
import { templatesQuery } from '../../../lib/project-resources.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { logsSearchQuery, type LogsSearchFilters } from '../api/logs-search-queries.ts';
import { teamMembersQuery } from '../api/tasks-queries.ts';
import { highlightWords, toSearchWords } from '../log-search-highlight.ts';
import { TaskDate, TaskLink } from './task-cells.tsx';
import { LINE_PARAM, TASK_PARAM, withSearchParams } from './task-links.ts';

/** The date filters, each labelled `logsSearch.<name>`. */
const DATE_FILTERS = ['from', 'to'] as const;

interface FormState {
  q: string;
  templateId: string;
  status: string;
  userId: string;
  from: string;
  to: string;
}

const EMPTY: FormState = { q: '', templateId: '', status: '', userId: '', from: '', to: '' };

function toFilters(form: FormState): LogsSearchFilters {
  return {
    q: form.q.trim(),
    ...(form.templateId ? { template_id: Number(form.templateId) } : {}),
    ...(form.status ? { status: form.status as TaskStatus } : {}),
    ...(form.userId ? { user_id: Number(form.userId) } : {}),
    ...(form.from ? { from: form.from } : {}),
    ...(form.to ? { to: form.to } : {}),
  };
}

/** One line of a result: its number and text, a link that opens the task's log at that line. */
function ResultLine({ taskId, line, words }: { taskId: number; line: LogsSearchLine; words: string[] }) {
  const location = useLocation();
  const href = {
    pathname: location.pathname,
    search: withSearchParams(location.search, { [TASK_PARAM]: taskId, [LINE_PARAM]: line.seq + 1 }),
  };
  const parts = line.match ? highlightWords(line.text, words) : [{ text: line.text, hit: false }];
  return (
    <Link
      component={RouterLink}
      to={href}
      underline="none"
      color={line.match ? 'text.primary' : 'text.secondary'}
      data-line={line.seq + 1}
      data-match={line.match ? 'true' : 'false'}
      sx={{
        display: 'flex',
        gap: 1.5,
        px: 1,
        fontFamily: 'monospace',
        fontSize: '0.8125rem',
        lineHeight: 1.6,
        '&:hover, &:focus-visible': { bgcolor: 'action.hover' },
      }}
    >
      <Box component="span" sx={{ minWidth: '4.5em', textAlign: 'right', color: 'text.disabled', flexShrink: 0 }}>
        {line.seq + 1}
      </Box>
      <Box component="span" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', minWidth: 0 }}>
        {parts.map((part, index) =>
          part.hit ? (
            <Box
              component="mark"
              key={index}
              sx={{ bgcolor: 'warning.light', color: 'warning.contrastText', borderRadius: 0.5 }}
            >
              {part.text}
            </Box>
          ) : (
            <span key={index}>{part.text}</span>
          ),
        )}
      </Box>
    </Link>
  );
}

/** A task of the results: which run it was, then its matching lines in context, gaps marked. */
function ResultTask({ task, words }: { task: LogsSearchTask; words: string[] }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" component="article" data-task={task.task_id} aria-label={`#${task.task_id}`}>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ alignItems: 'center', flexWrap: 'wrap', px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider' }}
      >
        <TaskLink taskId={task.task_id} />
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{task.template_name}</Typography>
        <TaskStatusChip status={task.status} />
        <Typography variant="body2" color="text.secondary" sx={{ ml: 'auto' }}>
          {task.user_name ?? t('logsSearch.noUser')} · <TaskDate value={task.end ?? task.created} />
        </Typography>
      </Stack>
      <Box sx={{ py: 0.5 }}>
        {task.lines.map((line, index) => {
          const previous = task.lines[index - 1];
          const gap = previous !== undefined && line.seq > previous.seq + 1;
          return (
            <Box key={line.seq}>
              {gap ? (
                <Typography variant="caption" color="text.disabled" sx={{ display: 'block', px: 1, pl: '6em' }}>
                  …
                </Typography>
              ) : null}
              <ResultLine taskId={task.task_id} line={line} words={words} />
            </Box>
          );
        })}
        {task.more ? (
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', px: 1, pl: '6em' }}>
            {t('logsSearch.more')}
          </Typography>
        ) : null}
      </Box>
    </Paper>
  );
}

function Results({ projectId, filters }: { projectId: number; filters: LogsSearchFilters }) {
  const { t } = useTranslation();
  const results = useInfiniteQuery(logsSearchQuery(projectId, filters));
  const words = toSearchWords(filters.q);
  if (results.isPending)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress aria-label={t('logsSearch.searching')} />
      </Box>
    );
  if (results.isError) return <Alert severity="error">{results.error.message}</Alert>;
  const tasks = results.data.pages.flatMap((page) => page.tasks);
  return (
    <Stack spacing={1.5} aria-label={t('logsSearch.results')} component="section">
      {tasks.length === 0 && !results.hasNextPage ? (
        <Typography color="text.secondary">{t('logsSearch.noResults')}</Typography>
      ) : null}
      {tasks.map((task) => (
        <ResultTask key={task.task_id} task={task} words={words} />
      ))}
      {results.hasNextPage ? (
        <Box>
          <Button onClick={() => void results.fetchNextPage()} loading={results.isFetchingNextPage}>
            {t('logsSearch.older')}
          </Button>
        </Box>
      ) : null}
    </Stack>
  );
}

/** "Which runs printed X?": the finished tasks of the project whose logs hold a text, with filters. */
export function LogsSearchPage() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const templates = useQuery(templatesQuery(projectId));
  const team = useQuery(teamMembersQuery(projectId));
  const [form, setForm] = useState<FormState>(EMPTY);
  const [submitted, setSubmitted] = useState<LogsSearchFilters | undefined>(undefined);
  const field = (name: keyof FormState) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) =>
      setForm((current) => ({ ...current, [name]: event.target.value })),
  });
  /** The filters that pick one of a list, or any. */
  const choiceFilters = [
    {
      name: 'templateId',
      label: 'logsSearch.template',
      options: (templates.data ?? []).map((template) => ({ value: String(template.id), label: template.name })),
      minWidth: 180,
    },
    {
      name: 'status',
      label: 'logsSearch.status',
      options: FINISHED_TASK_STATUSES.map((status) => ({ value: status, label: t(`taskStatus.${status}`) })),
      minWidth: 140,
    },
    {
      name: 'userId',
      label: 'logsSearch.user',
      options: (team.data ?? []).map((member) => ({ value: String(member.user_id), label: member.name })),
      minWidth: 160,
    },
  ] as const;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.q.trim() !== '') setSubmitted(toFilters(form));
  };
  return (
    <Stack spacing={2}>
      <Box component="form" role="search" onSubmit={submit} aria-label={t('logsSearch.title')}>
        <Stack spacing={1.5}>
          <Stack direction="row" spacing={1}>
            <TextField
              {...field('q')}
              label={t('logsSearch.text')}
              placeholder={t('logsSearch.placeholder')}
              size="small"
              fullWidth
              autoFocus
              slotProps={{ htmlInput: { maxLength: 500 } }}
              helperText={t('logsSearch.help')}
            />
            <Box>
              <Button type="submit" variant="contained" startIcon={<SearchIcon />} disabled={form.q.trim() === ''}>
                {t('logsSearch.search')}
              </Button>
            </Box>
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {choiceFilters.map(({ name, label, options, minWidth }) => (
              <OptionalSelect
                key={name}
                {...field(name)}
                label={t(label)}
                noneLabel={t('logsSearch.any')}
                options={options}
                size="small"
                sx={{ minWidth }}
              />
            ))}
            {DATE_FILTERS.map((name) => (
              <TextField
                key={name}
                {...field(name)}
                type="date"
                label={t(`logsSearch.${name}`)}
                size="small"
                slotProps={{ inputLabel: { shrink: true } }}
              />
            ))}
          </Stack>
        </Stack>
      </Box>
      {submitted ? <Results projectId={projectId} filters={submitted} /> : null}
    </Stack>
  );
}
