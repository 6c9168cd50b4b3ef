import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { OptionalSelect } from '../../../components/optional-select.tsx';
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
      section="taskStats"
      stats={stats}
      range={range}
      onRangeChange={setRange}
      filter={
        <OptionalSelect
          size="small"
          label={t('taskStats.user')}
          value={userId ?? ''}
          onChange={(event) => setUserId(event.target.value === '' ? null : Number(event.target.value))}
          noneLabel={t('taskStats.allUsers')}
          options={(team.data ?? []).map((member) => ({ value: member.user_id, label: member.name }))}
          sx={{ minWidth: 180 }}
        />
      }
    />
  );
}
