import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import { ChoiceToggle } from '../../../components/choice-toggle.tsx';

/** What the task log dialog shows below its header: the log, or one of the views a kind of template adds. */
export type LogDialogView = 'log' | 'hosts' | 'plan';

const LABEL_KEYS = { hosts: 'taskLog.viewHosts', plan: 'taskLog.viewPlan' } as const;

interface LogViewToggleRowProps {
  view: LogDialogView;
  /** The view beside the log: Hosts for Ansible, Plan for Terraform and OpenTofu. */
  other: Exclude<LogDialogView, 'log'>;
  onChange: (view: LogDialogView) => void;
  /** What follows the toggle on the row: the view's recap, its actions. */
  children: ReactNode;
}

/** The Log / Hosts or Log / Plan toggle of the task log dialog, followed by that view's recap. */
export function LogViewToggleRow({ view, other, onChange, children }: LogViewToggleRowProps) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1.5} useFlexGap sx={{ mt: 1, alignItems: 'center', minWidth: 0, flexWrap: 'wrap' }}>
      <ChoiceToggle<LogDialogView>
        label={t('taskLog.view')}
        value={view}
        choices={[
          { value: 'log', label: t('taskLog.viewLog') },
          { value: other, label: t(LABEL_KEYS[other]) },
        ]}
        onChange={onChange}
      />
      {children}
    </Stack>
  );
}
