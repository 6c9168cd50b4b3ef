import { useTranslation } from 'react-i18next';
import Typography from '@mui/material/Typography';
import type { PlanRecap } from '@gantry/contract';

/** "1 to add · 2 to change · 0 to destroy": what a terraform/OpenTofu task's plan changes; nothing for other tasks. */
export function PlanRecapLine({ recap }: { recap: PlanRecap | null }) {
  const { t } = useTranslation();
  if (!recap) return null;
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      component="div"
      sx={{ whiteSpace: 'nowrap', mt: 0.25 }}
      aria-label={t('taskLog.planRecapLabel')}
    >
      {t('taskLog.planRecap', recap)}
    </Typography>
  );
}
