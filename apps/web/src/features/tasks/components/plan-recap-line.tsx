import { useTranslation } from 'react-i18next';
import type { PlanRecap } from '@gantry/contract';
import { RecapLine } from './recap-line.tsx';

/** "1 to add · 2 to change · 0 to destroy": what a terraform/OpenTofu task's plan changes; nothing for other tasks. */
export function PlanRecapLine({ recap }: { recap: PlanRecap | null }) {
  const { t } = useTranslation();
  if (!recap) return null;
  return <RecapLine label={t('taskLog.planRecapLabel')} text={t('taskLog.planRecap', recap)} />;
}
