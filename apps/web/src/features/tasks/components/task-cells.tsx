import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { isTaskFinished, type TaskStatus } from '@gantry/contract';
import { formatDate, formatDuration } from '../../../lib/format-date.ts';
import { useTaskLinks } from './task-links.ts';
import { useNow } from './use-now.ts';

/** Relative dates ("5 minutes ago") are refreshed this often. */
const RELATIVE_DATE_REFRESH_MS = 30_000;

/** A task's duration; it ticks every second while the task runs. */
export function TaskDuration({ start, end, status }: { start: string | null; end: string | null; status: TaskStatus }) {
  const { i18n } = useTranslation();
  const ticking = start !== null && end === null && !isTaskFinished(status);
  const now = useNow(1000, ticking);
  return <>{formatDuration([start, end], { locale: i18n.language, now })}</>;
}

/** A date by the seed's rule: relative plus HH:mm today, else the localised date with HH:mm; a dash when missing. */
export function TaskDate({ value }: { value: string | null }) {
  const { i18n } = useTranslation();
  const now = useNow(RELATIVE_DATE_REFRESH_MS, value !== null);
  return (
    <Typography
      component="span"
      variant="inherit"
      sx={{ whiteSpace: 'nowrap' }}
      title={value ? new Date(value).toLocaleString(i18n.language) : undefined}
    >
      {formatDate(value, { locale: i18n.language, now })}
    </Typography>
  );
}

/** "#12", opening the task's log over the current page. */
export function TaskLink({ taskId, label }: { taskId: number; label?: string }) {
  const { taskHref } = useTaskLinks();
  return (
    <Link component={RouterLink} to={taskHref(taskId)} underline="hover" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
      {label ?? `#${taskId}`}
    </Link>
  );
}
