import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { StatsChart } from '../../../components/stats-chart/stats-chart.tsx';
import { getStatsStart } from '../../../components/stats-chart/stats-days.ts';
import type { StatsRange } from '../../../components/stats-chart/stats-days.ts';
import { teamMembersQuery, templateStatsQuery } from '../api/tasks-queries.ts';

/** Finished tasks of a template per day and status over the past week, month or year, for everyone or one team member. */
export function TemplateStatsChart({ projectId, templateId }: { projectId: number; templateId: number }) {
  const { t } = useTranslation();
  const [range, setRange] = useState<StatsRange>('week');
  const [userId, setUserId] = useState<number | null>(null);
  const stats = useQuery(templateStatsQuery(projectId, templateId, getStatsStart(range), userId));
  const team = useQuery(teamMembersQuery(projectId));

  return (
    <StatsChart
      title={t('taskStats.title')}
      stats={stats}
      range={range}
      onRangeChange={setRange}
      emptyText={t('taskStats.empty')}
      chartLabel={(totals) => t('taskStats.chartLabel', totals)}
      filter={
        <TextField
          select
          size="small"
          label={t('taskStats.user')}
          value={userId ?? ''}
          onChange={(event) => setUserId(event.target.value === '' ? null : Number(event.target.value))}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value="">{t('taskStats.allUsers')}</MenuItem>
          {(team.data ?? []).map((member) => (
            <MenuItem key={member.user_id} value={member.user_id}>
              {member.name}
            </MenuItem>
          ))}
        </TextField>
      }
    />
  );
}
