import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { DASH, formatDate, formatDuration } from '../../../lib/format-date.ts';
import { templateTasksQuery } from '../api/templates-queries.ts';
import { TASK_LOG_PARAM, useHrefWithParam } from './template-helpers.ts';
import { TaskStatusChip } from '../../../components/task-status-chip.tsx';

/** The list inside an expanded template row: its newest 5 tasks. */
export const ROW_TASK_LIMIT = 5;

export function TemplateLastTasks({ projectId, templateId }: { projectId: number; templateId: number }) {
  const { t, i18n } = useTranslation();
  const hrefWithParam = useHrefWithParam();
  const tasks = useQuery(templateTasksQuery(projectId, templateId, ROW_TASK_LIMIT));

  if (tasks.isPending) return <LinearProgress sx={{ my: 1 }} />;
  if (tasks.error) return <Alert severity="error">{getErrorMessage(tasks.error)}</Alert>;
  if (tasks.data.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ py: 1.5 }}>
        {t('templates.noTasks')}
      </Typography>
    );
  }
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={t('templates.lastTasks')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('templates.task')}</TableCell>
            <TableCell>{t('templates.status')}</TableCell>
            <TableCell>{t('templates.user')}</TableCell>
            <TableCell>{t('templates.start')}</TableCell>
            <TableCell>{t('templates.duration')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {tasks.data.map((task) => (
            <TableRow key={task.id}>
              <TableCell>
                <Link component={RouterLink} to={hrefWithParam(TASK_LOG_PARAM, task.id)} underline="hover">
                  #{task.id}
                </Link>
              </TableCell>
              <TableCell>
                <TaskStatusChip status={task.status} />
              </TableCell>
              <TableCell>{task.user_name ?? DASH}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(task.start, { locale: i18n.language })}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{task.start ? formatDuration([task.start, task.end], { locale: i18n.language }) : DASH}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
