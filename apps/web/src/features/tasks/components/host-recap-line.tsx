import { useTranslation } from 'react-i18next';
import type { HostRecap } from '@gantry/contract';
import { getRecapParts } from '../host-results.ts';
import { RecapLine } from './recap-line.tsx';

/** "12 ok · 3 changed · 1 failed": an ansible task's hosts by outcome; nothing for other tasks. */
export function HostRecapLine({ recap }: { recap: HostRecap | null }) {
  const { t } = useTranslation();
  const parts = getRecapParts(recap);
  if (parts.length === 0) return null;
  return (
    <RecapLine
      label={t('taskLog.hostRecapLabel')}
      text={parts.map((part) => `${part.count} ${t(`taskLog.hostStatus.${part.status}`)}`).join(' · ')}
    />
  );
}
