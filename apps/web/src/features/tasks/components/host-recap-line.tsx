import { useTranslation } from 'react-i18next';
import Typography from '@mui/material/Typography';
import type { HostRecap } from '@gantry/contract';
import { getRecapParts } from '../host-results.ts';

/** "12 ok · 3 changed · 1 failed": an ansible task's hosts by outcome; nothing for other tasks. */
export function HostRecapLine({ recap }: { recap: HostRecap | null }) {
  const { t } = useTranslation();
  const parts = getRecapParts(recap);
  if (parts.length === 0) return null;
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      component="div"
      sx={{ whiteSpace: 'nowrap', mt: 0.25 }}
      aria-label={t('taskLog.hostRecapLabel')}
    >
      {parts.map((part) => `${part.count} ${t(`taskLog.hostStatus.${part.status}`)}`).join(' · ')}
    </Typography>
  );
}
