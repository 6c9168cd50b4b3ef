import { useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import type { StatsEntry } from '@gantry/contract';
import { getErrorMessage } from '../../lib/api-client.ts';
import { ChoiceToggle } from '../choice-toggle.tsx';
import { useElementSize } from '../use-element-size.ts';
import { STATS_RANGES, STATS_STATUSES, getNiceMax, listAxisTicks, toStatsDays } from './stats-days.ts';
import type { StatsDay, StatsRange, StatsStatus } from './stats-days.ts';

const CHART_HEIGHT = 180;
const AXIS_WIDTH = 32;
const LABEL_HEIGHT = 22;
/** Room above the plot for the top axis label. */
const PLOT_TOP = 8;

function useStatusColours(): Record<StatsStatus, string> {
  const theme = useTheme();
  return {
    success: theme.palette.success.main,
    failed: theme.palette.error.main,
    stopped: theme.palette.text.disabled,
  };
}

/** Stacked bars per day, drawn as plain SVG at the container's width. */
function StatsBars({ days, label }: { days: StatsDay[]; label: string }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const colours = useStatusColours();
  const ref = useRef<HTMLDivElement>(null);
  const { width } = useElementSize(ref);
  const [hovered, setHovered] = useState<number | null>(null);
  const max = getNiceMax(Math.max(0, ...days.map((day) => day.total)));
  const plotWidth = Math.max(0, width - AXIS_WIDTH);
  const plotHeight = CHART_HEIGHT - LABEL_HEIGHT - PLOT_TOP;
  const slot = days.length > 0 ? plotWidth / days.length : 0;
  const barWidth = Math.max(1, Math.min(28, slot * 0.7));
  const dayLabel = (date: string, options: Intl.DateTimeFormatOptions) =>
    new Date(`${date}T00:00:00Z`).toLocaleDateString(i18n.language, { ...options, timeZone: 'UTC' });
  // Every day is labelled when the labels fit (about 56 px each), else the first, middle and last.
  const fitsAll = days.length <= Math.floor(plotWidth / 56);
  const labelled = fitsAll ? days.map((_, index) => index) : [0, Math.floor((days.length - 1) / 2), days.length - 1];
  const describe = (day: StatsDay) =>
    `${dayLabel(day.date, { dateStyle: 'medium' })}: ${STATS_STATUSES.map((status) => `${day[status]} ${t(`taskStats.${status}`)}`).join(', ')}`;
  const focus = hovered !== null ? days[hovered] : undefined;

  return (
    <Box ref={ref} sx={{ position: 'relative', width: '100%', height: CHART_HEIGHT }}>
      {width > 0 ? (
        <svg width={width} height={CHART_HEIGHT} role="img" aria-label={label} onMouseLeave={() => setHovered(null)}>
          {listAxisTicks(max).map(({ fraction, label: count }) => {
            const y = PLOT_TOP + plotHeight - fraction * plotHeight + 0.5;
            return (
              <g key={fraction}>
                <line x1={AXIS_WIDTH} x2={width} y1={y} y2={y} stroke={theme.palette.divider} />
                {count === undefined ? null : (
                  <text x={AXIS_WIDTH - 6} y={y + 4} textAnchor="end" fontSize={11} fill={theme.palette.text.secondary}>
                    {count}
                  </text>
                )}
              </g>
            );
          })}
          {days.map((day, index) => {
            const x = AXIS_WIDTH + index * slot + (slot - barWidth) / 2;
            let top = PLOT_TOP + plotHeight;
            return (
              <g
                key={day.date}
                onMouseEnter={() => setHovered(index)}
                opacity={hovered === null || hovered === index ? 1 : 0.55}
              >
                <title>{describe(day)}</title>
                <rect x={AXIS_WIDTH + index * slot} y={PLOT_TOP} width={slot} height={plotHeight} fill="transparent" />
                {STATS_STATUSES.map((status) => {
                  const height = (day[status] / max) * plotHeight;
                  if (height <= 0) return null;
                  top -= height;
                  return (
                    <rect
                      key={status}
                      x={x}
                      y={top}
                      width={barWidth}
                      height={height}
                      fill={colours[status]}
                      rx={barWidth > 6 ? 2 : 0}
                    />
                  );
                })}
              </g>
            );
          })}
          {labelled.map((index) => {
            const day = days[index];
            if (!day) return null;
            const x = AXIS_WIDTH + index * slot + slot / 2;
            const anchor = fitsAll ? 'middle' : index === 0 ? 'start' : index === days.length - 1 ? 'end' : 'middle';
            return (
              <text
                key={day.date}
                x={anchor === 'start' ? AXIS_WIDTH : anchor === 'end' ? width : x}
                y={CHART_HEIGHT - 6}
                textAnchor={anchor}
                fontSize={11}
                fill={theme.palette.text.secondary}
              >
                {dayLabel(day.date, { month: 'short', day: 'numeric' })}
              </text>
            );
          })}
        </svg>
      ) : null}
      {focus ? (
        <Typography
          variant="caption"
          sx={{
            position: 'absolute',
            top: 0,
            right: 0,
            px: 1,
            py: 0.25,
            borderRadius: 1,
            bgcolor: 'background.paper',
            boxShadow: 1,
            pointerEvents: 'none',
          }}
        >
          {describe(focus)}
        </Typography>
      ) : null}
    </Box>
  );
}

interface StatsChartProps {
  /**
   * The translation section of the chart's texts: `title`, `empty` (said over an empty chart) and
   * `chartLabel` (its accessible name, given the totals).
   */
  section: string;
  /** The per-day counts of the chosen range. */
  stats: UseQueryResult<StatsEntry[]>;
  range: StatsRange;
  onRangeChange: (range: StatsRange) => void;
  /** A filter beside the range (the template's chart picks a user). */
  filter?: ReactNode;
}

/**
 * What finished per day and outcome (success, failed, stopped) over the past week, month or year:
 * a template's tasks, a workflow's runs.
 */
export function StatsChart({ section, stats, range, onRangeChange, filter }: StatsChartProps) {
  const { t } = useTranslation();
  const colours = useStatusColours();
  const days = stats.data ? toStatsDays(stats.data) : [];
  const totals = Object.fromEntries(
    STATS_STATUSES.map((status) => [status, days.reduce((sum, day) => sum + day[status], 0)]),
  ) as Record<StatsStatus, number>;
  const empty = stats.isSuccess && days.every((day) => day.total === 0);

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        useFlexGap
        sx={{ alignItems: { sm: 'center' }, mb: 2, flexWrap: 'wrap' }}
      >
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, flexGrow: 1 }}>
          {t(`${section}.title`)}
        </Typography>
        <ChoiceToggle
          label={t('taskStats.range')}
          value={range}
          choices={STATS_RANGES.map((value) => ({ value, label: t(`taskStats.ranges.${value}`) }))}
          onChange={onRangeChange}
          buttonSx={{ px: 1.5, textTransform: 'none' }}
        />
        {filter}
      </Stack>

      <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 1, flexWrap: 'wrap' }}>
        {STATS_STATUSES.map((status) => (
          <Stack key={status} direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
            <Box sx={{ width: 10, height: 10, borderRadius: 0.5, bgcolor: colours[status] }} />
            <Typography variant="body2" color="text.secondary">
              {t(`taskStats.${status}`)}
            </Typography>
            <Typography variant="body2" sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
              {stats.isSuccess ? totals[status] : '–'}
            </Typography>
          </Stack>
        ))}
      </Stack>

      {stats.error ? (
        <Alert severity="error">{getErrorMessage(stats.error)}</Alert>
      ) : stats.isPending ? (
        <Skeleton variant="rounded" height={CHART_HEIGHT} />
      ) : (
        <Box sx={{ position: 'relative' }}>
          <StatsBars days={days} label={t(`${section}.chartLabel`, totals)} />
          {empty ? (
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{
                position: 'absolute',
                inset: 0,
                bottom: LABEL_HEIGHT,
                display: 'grid',
                placeItems: 'center',
                pointerEvents: 'none',
              }}
            >
              {t(`${section}.empty`)}
            </Typography>
          ) : null}
        </Box>
      )}
    </Paper>
  );
}
