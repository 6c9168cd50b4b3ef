import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** The spinner that stands for a task's log, hosts or plan while they load, on the view's `background`. */
export function TaskViewLoading({ background }: { background?: string }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ flex: 1, minHeight: 200, display: 'grid', placeItems: 'center', bgcolor: background }}>
      <CircularProgress size={28} aria-label={t('taskLog.loading')} />
    </Box>
  );
}
