import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { PlanAction } from '@gantry/contract';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { taskPlanQuery } from '../api/tasks-queries.ts';
import { TaskResultList } from './task-result-list.tsx';
import { TaskViewLoading } from './task-view-loading.tsx';

/** Colours of the actions, as terraform's own plan paints them (create green, update yellow, destroy red). */
const ACTION_COLORS: Record<PlanAction, 'success' | 'warning' | 'error' | 'secondary'> = {
  create: 'success',
  update: 'warning',
  replace: 'secondary',
  delete: 'error',
};

/** The resources a terraform/OpenTofu task's plan changes, one row each with its action. */
export function TaskPlanView({ projectId, taskId }: { projectId: number; taskId: number }) {
  const { t } = useTranslation();
  const plan = useQuery(taskPlanQuery(projectId, taskId));
  if (plan.isPending) return <TaskViewLoading />;
  if (plan.isError)
    return (
      <Alert severity="info" sx={{ m: 2 }}>
        {getErrorMessage(plan.error)}
      </Alert>
    );
  const { resources, truncated } = plan.data;
  return (
    <Box sx={{ flex: 1, minHeight: 200, overflow: 'auto' }} aria-label={t('taskLog.planResources')}>
      <TaskResultList truncated={truncated} notice={t('taskLog.planTruncated')} noticeMargin={2}>
        {resources.map((resource, index) => (
          <Box
            component="li"
            key={index}
            data-action={resource.action}
            sx={{
              listStyle: 'none',
              display: 'grid',
              gridTemplateColumns: '6.5rem minmax(0, 1fr)',
              columnGap: 1.5,
              alignItems: 'center',
              py: 0.75,
              px: { xs: 1, sm: 2 },
              borderBottom: 1,
              borderColor: 'divider',
            }}
          >
            <Chip
              size="small"
              variant="outlined"
              color={ACTION_COLORS[resource.action]}
              label={t(`taskLog.planAction.${resource.action}`)}
            />
            <Typography variant="body2" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
              {resource.address}
            </Typography>
          </Box>
        ))}
      </TaskResultList>
    </Box>
  );
}
