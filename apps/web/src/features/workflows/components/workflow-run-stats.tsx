import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { StatsChart } from '../../../components/stats-chart/stats-chart.tsx';
import { getStatsStart } from '../../../components/stats-chart/stats-days.ts';
import type { StatsRange } from '../../../components/stats-chart/stats-days.ts';
import { workflowRunStatsQuery } from '../api/workflows-queries.ts';

interface WorkflowRunStatsProps {
  projectId: number;
  workflowId: number;
  /** How many of the listed runs have ended: when a run ends while the page is open, the chart is read again. */
  endedRuns: number | undefined;
}

/** The workflow's ended runs per day and outcome over the past week, month or year. */
export function WorkflowRunStats({ projectId, workflowId, endedRuns }: WorkflowRunStatsProps) {
  const queryClient = useQueryClient();
  const [range, setRange] = useState<StatsRange>('week');
  const query = workflowRunStatsQuery(projectId, workflowId, getStatsStart(range));
  const stats = useQuery(query);
  const seenEnded = useRef(endedRuns);
  useEffect(() => {
    if (seenEnded.current === undefined || endedRuns === undefined || endedRuns === seenEnded.current) {
      seenEnded.current = endedRuns ?? seenEnded.current;
      return;
    }
    seenEnded.current = endedRuns;
    void queryClient.invalidateQueries({ queryKey: query.queryKey });
  }, [endedRuns, queryClient, query.queryKey]);
  return <StatsChart section="workflows.runStats" stats={stats} range={range} onRangeChange={setRange} />;
}
