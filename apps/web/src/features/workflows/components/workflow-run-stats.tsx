import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { StatsChart } from '../../../components/stats-chart/stats-chart.tsx';
import { getStatsStart } from '../../../components/stats-chart/stats-days.ts';
import type { StatsRange } from '../../../components/stats-chart/stats-days.ts';
import { workflowRunStatsQuery } from '../api/workflows-queries.ts';

/** The workflow's ended runs per day and outcome over the past week, month or year. */
export function WorkflowRunStats({ projectId, workflowId }: { projectId: number; workflowId: number }) {
  const { t } = useTranslation();
  const [range, setRange] = useState<StatsRange>('week');
  const stats = useQuery(workflowRunStatsQuery(projectId, workflowId, getStatsStart(range)));
  return (
    <StatsChart
      title={t('workflows.runStats.title')}
      stats={stats}
      range={range}
      onRangeChange={setRange}
      emptyText={t('workflows.runStats.empty')}
      chartLabel={(totals) => t('workflows.runStats.chartLabel', totals)}
    />
  );
}
