import { Fragment, useState } from 'react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import CommitIcon from '@mui/icons-material/Commit';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Permission } from '@gantry/contract';
import type { Schedule } from '@gantry/contract';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useResourceDelete } from '../../../components/resource-delete.tsx';
import { RowActions } from '../../../components/row-actions.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { repositoriesQuery } from '../../../lib/project-resources.ts';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { schedulesQuery, useDeleteSchedule, useSetScheduleActive } from '../api/schedules-queries.ts';
import { CHECK_INTERVAL_LABEL_KEYS } from '../cron-picker.ts';
import { ScheduleDialog } from './schedule-dialog.tsx';

interface SchedulesPageProps {
  /** The template's last tasks, shown when a row is expanded (the tasks area provides it). */
  renderLastTasks: (templateId: number) => ReactNode;
}

/** /schedule: the project's schedules; a row expands to its template's last 5 tasks. */
export function SchedulesPage({ renderLastTasks }: SchedulesPageProps) {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const snackbar = useSnackbar();
  const access = useProjectAccess(projectId);
  const schedules = useQuery(schedulesQuery(projectId));
  const repositories = useQuery(repositoriesQuery(projectId));
  const setActive = useSetScheduleActive(projectId);
  const remove = useDeleteSchedule(projectId);
  const editDialog = useDialogState<Schedule>();
  const deletion = useResourceDelete(projectId);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const canManage = access.can(Permission.manageProjectResources);
  const repositoryNames = new Map((repositories.data ?? []).map((repository) => [repository.id, repository.name]));
  const rows = schedules.data ?? [];
  const columnCount = canManage ? 6 : 5;

  const toggle = (id: number) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const changeActive = (schedule: Schedule, active: boolean) =>
    setActive.mutate(
      { scheduleId: schedule.id, active },
      { onError: (error) => snackbar.showError(getErrorMessage(error)) },
    );

  const requestDelete = (schedule: Schedule) =>
    void deletion.request({
      name: schedule.name,
      title: t('schedules.deleteTitle'),
      message: t('schedules.deleteConfirm', { name: schedule.name }),
      remove: () => remove.mutateAsync(schedule.id),
      onDeleted: () => snackbar.showSuccess(t('schedules.deleted', { name: schedule.name })),
    });

  const describeCron = (schedule: Schedule) => {
    if (schedule.repository_id === null) return null;
    const interval = CHECK_INTERVAL_LABEL_KEYS[schedule.cron_format as keyof typeof CHECK_INTERVAL_LABEL_KEYS];
    return (
      <Tooltip title={t('schedules.onCommitHint', { interval: interval ? t(interval) : schedule.cron_format })}>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'text.secondary', fontSize: 12 }}>
          <CommitIcon sx={{ fontSize: 16 }} />
          <span>{t('schedules.onCommitOf', { repository: repositoryNames.get(schedule.repository_id) ?? `#${schedule.repository_id}` })}</span>
        </Stack>
      </Tooltip>
    );
  };

  return (
    <Page>
      <PageHeader
        title={t('schedules.title')}
        actions={
          canManage ? (
            <Button variant="contained" disableElevation startIcon={<AddIcon />} onClick={() => editDialog.show(undefined)}>
              {t('schedules.newSchedule')}
            </Button>
          ) : null
        }
      />
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        {schedules.isFetching ? <LinearProgress sx={{ height: 2 }} /> : <div style={{ height: 2 }} />}
        <TableContainer>
          <Table aria-label={t('schedules.title')}>
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox" />
                <TableCell sx={{ width: 72, whiteSpace: 'nowrap' }}>{t('schedules.active')}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{t('schedules.name')}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{t('schedules.cron')}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{t('schedules.template')}</TableCell>
                {canManage ? <TableCell sx={{ width: 104 }} /> : null}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((schedule) => {
                const open = expanded.has(schedule.id);
                return (
                  <Fragment key={schedule.id}>
                    <TableRow hover sx={open ? { '& > td': { borderBottom: 0 } } : undefined}>
                      <TableCell padding="checkbox">
                        <IconButton
                          size="small"
                          onClick={() => toggle(schedule.id)}
                          aria-expanded={open}
                          aria-label={t(open ? 'schedules.hideTasks' : 'schedules.showTasks', { name: schedule.name })}
                        >
                          {open ? <KeyboardArrowDownIcon fontSize="small" /> : <KeyboardArrowRightIcon fontSize="small" />}
                        </IconButton>
                      </TableCell>
                      <TableCell>
                        <Switch
                          size="small"
                          checked={schedule.active}
                          disabled={!canManage}
                          onChange={(event) => changeActive(schedule, event.target.checked)}
                          slotProps={{ input: { 'aria-label': t('schedules.activeNamed', { name: schedule.name }) } }}
                        />
                      </TableCell>
                      <TableCell sx={{ fontWeight: 500 }}>{schedule.name}</TableCell>
                      <TableCell>
                        <Box component="code" sx={{ fontSize: 13, whiteSpace: 'nowrap' }}>
                          {schedule.cron_format}
                        </Box>
                        {describeCron(schedule)}
                      </TableCell>
                      <TableCell>
                        <Link component={RouterLink} to={`/project/${projectId}/templates/${schedule.template_id}`} underline="hover">
                          {schedule.tpl_name}
                        </Link>
                      </TableCell>
                      {canManage ? (
                        <TableCell align="right">
                          <RowActions
                            name={schedule.name}
                            onEdit={() => editDialog.show(schedule)}
                            onDelete={() => requestDelete(schedule)}
                            deleting={remove.isPending && remove.variables === schedule.id}
                          />
                        </TableCell>
                      ) : null}
                    </TableRow>
                    {open ? (
                      <TableRow>
                        <TableCell colSpan={columnCount} sx={{ bgcolor: 'action.hover', py: 1.5, px: { xs: 2, sm: 3 } }}>
                          {renderLastTasks(schedule.template_id)}
                        </TableCell>
                      </TableRow>
                    ) : null}
                  </Fragment>
                );
              })}
              {schedules.error ? (
                <TableRow>
                  <TableCell colSpan={columnCount} sx={{ borderBottom: 0 }}>
                    <Alert severity="error">{getErrorMessage(schedules.error)}</Alert>
                  </TableCell>
                </TableRow>
              ) : null}
              {schedules.isSuccess && rows.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={columnCount} sx={{ borderBottom: 0, py: 6 }}>
                    <Typography color="text.secondary" align="center" variant="body2">
                      {t('schedules.empty')}
                    </Typography>
                  </TableCell>
                </TableRow>
              ) : null}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
      <ScheduleDialog open={editDialog.open} projectId={projectId} schedule={editDialog.item} onClose={editDialog.close} />
      {deletion.element}
    </Page>
  );
}
