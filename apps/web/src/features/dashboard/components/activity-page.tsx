import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Typography from '@mui/material/Typography';
import type { Event } from '@gantry/contract';
import { DataTable } from '../../../components/data-table.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { DASH, formatDate } from '../../../lib/format-date.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { projectEventsQuery } from '../api/events-queries.ts';

export function ActivityPage() {
  const { t, i18n } = useTranslation();
  const projectId = useProjectId();
  const events = useQuery(projectEventsQuery(projectId));

  const columns: Column<Event>[] = [
    {
      id: 'time',
      header: t('activity.time'),
      width: 220,
      render: (event) => (
        <Typography
          variant="body2"
          sx={{ whiteSpace: 'nowrap' }}
          title={new Date(event.created).toLocaleString(i18n.language)}
        >
          {formatDate(event.created, { locale: i18n.language })}
        </Typography>
      ),
    },
    { id: 'user', header: t('activity.user'), width: 200, hideBelow: 'sm', render: (event) => event.username ?? DASH },
    { id: 'description', header: t('activity.description'), render: (event) => event.description },
  ];

  return (
    <DataTable aria-label={t('activity.title')} columns={columns} query={events} emptyText={t('activity.empty')} />
  );
}
