import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { HOST_STATUSES, type HostStatus, type TaskHost } from '@gantry/contract';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { taskHostsQuery } from '../api/tasks-queries.ts';
import { HOST_STATUS_COLORS, formatResultDuration, getCountParts } from '../host-results.ts';
import { TaskResultList } from './task-result-list.tsx';
import { TaskViewLoading } from './task-view-loading.tsx';

function StatusChip({ status, count }: { status: HostStatus; count?: number }) {
  const { t } = useTranslation();
  const label = t(`taskLog.hostStatus.${status}`);
  return (
    <Chip
      size="small"
      variant="outlined"
      color={HOST_STATUS_COLORS[status]}
      label={count === undefined ? label : `${count} ${label}`}
    />
  );
}

function HostRow({ host }: { host: TaskHost }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const resultsId = `host-results-${host.host}`;
  return (
    <Box component="li" sx={{ borderBottom: 1, borderColor: 'divider', listStyle: 'none' }} data-host={host.host}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', py: 0.75, px: { xs: 1, sm: 2 }, minWidth: 0 }}>
        <IconButton
          size="small"
          onClick={() => setOpen((value) => !value)}
          aria-expanded={open}
          aria-controls={resultsId}
          aria-label={t('taskLog.hostResults', { host: host.host })}
          disabled={host.results.length === 0}
        >
          <ExpandMoreIcon sx={{ transform: open ? 'rotate(180deg)' : 'none', transition: 'transform 150ms' }} />
        </IconButton>
        <Typography
          variant="body2"
          sx={{ fontFamily: 'monospace', fontWeight: 600, minWidth: 0, flex: '0 1 auto', overflowWrap: 'anywhere' }}
        >
          {host.host}
        </Typography>
        <Stack
          direction="row"
          spacing={0.5}
          useFlexGap
          sx={{ flexWrap: 'wrap', ml: 'auto', justifyContent: 'flex-end' }}
        >
          {getCountParts(host, HOST_STATUSES).map((part) => (
            <StatusChip key={part.status} status={part.status} count={part.count} />
          ))}
        </Stack>
      </Stack>
      <Collapse in={open} unmountOnExit>
        <Box component="ol" id={resultsId} sx={{ m: 0, pl: { xs: 1, sm: 7 }, pr: { xs: 1, sm: 2 }, pb: 1 }}>
          {host.results.map((result, index) => (
            <Box
              component="li"
              key={index}
              sx={{
                listStyle: 'none',
                display: 'grid',
                gridTemplateColumns: 'auto minmax(0, 1fr) auto',
                columnGap: 1,
                alignItems: 'baseline',
                py: 0.5,
              }}
            >
              <StatusChip status={result.status} />
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {result.task}
                </Typography>
                {result.play ? (
                  <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                    {result.play}
                  </Typography>
                ) : null}
                {result.message ? (
                  <Typography
                    variant="body2"
                    color="error"
                    component="pre"
                    sx={{ m: 0, fontFamily: 'monospace', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                  >
                    {result.message}
                  </Typography>
                ) : null}
              </Box>
              <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                {formatResultDuration(result.duration_ms)}
              </Typography>
            </Box>
          ))}
        </Box>
      </Collapse>
    </Box>
  );
}

/** The hosts of an ansible task: one row per host with its counts, expandable to its task results. */
export function TaskHostsView({
  projectId,
  taskId,
  finished,
}: {
  projectId: number;
  taskId: number;
  /** Results are stored when the task ends: read again then. */
  finished: boolean;
}) {
  const { t } = useTranslation();
  const query = useQuery(taskHostsQuery(projectId, taskId, finished));
  if (query.error) return <Alert severity="error">{getErrorMessage(query.error)}</Alert>;
  if (!query.data) return <TaskViewLoading />;
  const { hosts, truncated } = query.data;
  return (
    <Box sx={{ flex: 1, overflow: 'auto', minHeight: 0 }} aria-label={t('taskLog.viewHosts')} role="region">
      {hosts.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 3 }}>
          {finished ? t('taskLog.hostsEmpty') : t('taskLog.hostsWhenFinished')}
        </Typography>
      ) : (
        <TaskResultList truncated={truncated} notice={t('taskLog.hostsTruncated')} noticeMargin={1}>
          {hosts.map((host) => (
            <HostRow key={host.host} host={host} />
          ))}
        </TaskResultList>
      )}
    </Box>
  );
}
