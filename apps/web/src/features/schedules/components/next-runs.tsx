import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ScheduleIcon from '@mui/icons-material/Schedule';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { resourceKeys } from '../../../lib/project-resources.ts';
import { validateCron } from '../api/schedules-queries.ts';

/** The server checks the expression after the user pauses typing, not on every key. */
const PREVIEW_DELAY_MS = 350;

function useDelayed<T>(value: T, delay: number): T {
  const [delayed, setDelayed] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDelayed(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return delayed;
}

/** A due time in the schedule's time zone; an unknown zone name falls back to the browser's. */
function formatRunTime(value: string, locale: string, timeZone: string | undefined): string {
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  };
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone }).format(new Date(value));
  } catch {
    return new Intl.DateTimeFormat(locale, options).format(new Date(value));
  }
}

/** A line in place of the runs: why there are none to show (yet). */
function Note({ children }: { children: string }) {
  return (
    <Typography variant="body2" color="text.secondary">
      {children}
    </Typography>
  );
}

interface NextRunsProps {
  projectId: number;
  cron: string;
  timeZone: string | undefined;
  /** A commit-watching schedule checks the repository at these times rather than running. */
  checksOnly?: boolean;
}

/** When the schedule would fire next, as the server computes it, or why it would not accept the expression. */
export function NextRuns({ projectId, cron, timeZone, checksOnly = false }: NextRunsProps) {
  const { t, i18n } = useTranslation();
  const expression = useDelayed(cron.trim(), PREVIEW_DELAY_MS);
  const preview = useQuery({
    queryKey: [...resourceKeys.schedules(projectId), 'preview', expression],
    queryFn: ({ signal }) => validateCron(projectId, expression, signal),
    enabled: expression !== '',
    retry: false,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 2, py: 1.5 }} aria-live="polite">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
        <ScheduleIcon fontSize="small" color="action" />
        <Typography variant="subtitle2">{t(checksOnly ? 'schedules.nextChecks' : 'schedules.nextRuns')}</Typography>
        <Box sx={{ flexGrow: 1 }} />
        <Typography variant="caption" color="text.secondary">
          {t('schedules.timeZone', { zone: timeZone ?? 'UTC' })}
        </Typography>
      </Stack>
      {expression === '' ? (
        <Note>{t('schedules.noCronYet')}</Note>
      ) : preview.error ? (
        <Typography variant="body2" color="error" role="alert">
          {getErrorMessage(preview.error)}
        </Typography>
      ) : preview.data ? (
        preview.data.next_runs.length ? (
          <Box
            component="ul"
            sx={{ m: 0, pl: 2.5, opacity: preview.isPlaceholderData ? 0.5 : 1 }}
            aria-label={t('schedules.nextRuns')}
          >
            {preview.data.next_runs.map((run) => (
              <Typography key={run} component="li" variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatRunTime(run, i18n.language, timeZone)}
              </Typography>
            ))}
          </Box>
        ) : (
          <Note>{t('schedules.neverRuns')}</Note>
        )
      ) : (
        <Note>{t('schedules.checking')}</Note>
      )}
    </Box>
  );
}
