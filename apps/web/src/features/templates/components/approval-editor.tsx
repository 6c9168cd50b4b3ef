import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ApprovalRuleFields } from '../../../components/approvals/approval-rule-fields.tsx';
import { projectMembersQuery } from '../api/templates-queries.ts';
import type { ApprovalFields } from './template-form.ts';

interface ApprovalEditorProps {
  projectId: number;
  value: ApprovalFields;
  onChange: (value: ApprovalFields) => void;
  /** The contract's message for the gate, if it is refused. */
  error?: string | undefined;
}

/** "Needs approval before it runs": approvers (members and roles), N of them, the timeout and what it decides. */
export function ApprovalEditor({ projectId, value, onChange, error }: ApprovalEditorProps) {
  const { t } = useTranslation();
  const members = useQuery({ ...projectMembersQuery(projectId), enabled: value.enabled });
  const set = (changes: Partial<ApprovalFields>) => onChange({ ...value, ...changes });
  return (
    <Stack spacing={2} component="section" aria-label={t('templates.form.approval')}>
      <FormControlLabel
        control={<Checkbox checked={value.enabled} onChange={(event) => set({ enabled: event.target.checked })} />}
        label={t('templates.form.needsApproval')}
      />
      {value.enabled ? (
        <ApprovalRuleFields
          value={value}
          onChange={set}
          members={members.data ?? []}
          starterMayApproveLabel={t('templates.form.starterMayApprove')}
        />
      ) : null}
      {error ? (
        <Typography variant="body2" color="error" role="alert">
          {error}
        </Typography>
      ) : null}
    </Stack>
  );
}
