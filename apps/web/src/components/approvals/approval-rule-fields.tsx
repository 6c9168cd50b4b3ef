import { useTranslation } from 'react-i18next';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ProjectRoleSlug } from '@gantry/contract';
import type { TeamMember } from '@gantry/contract';
import { ChoiceSelect } from '../choice-select.tsx';
import type { ApprovalRule } from './approval-rule.ts';

/** What a multiple select passes: the chosen values (MUI types them as the input's string). */
const chosenOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

interface ApprovalRuleFieldsProps {
  value: ApprovalRule;
  onChange: (changes: Partial<ApprovalRule>) => void;
  /** The project's members: all but guests are offered as approvers. */
  members: readonly TeamMember[];
  /** What "the starter may approve" allows, in the words of what is started (a task, a run). */
  starterMayApproveLabel: string;
  requiredHint?: string;
}

/** Guests never decide on a gate, so none is offered as an approver, by name or by role. */
const APPROVER_ROLES = ProjectRoleSlug.options.filter((role) => role !== 'guest');

/** The fields of an approval gate (a template's or a workflow step's): approvers, N of them, the timeout and what it decides. */
export function ApprovalRuleFields({
  value,
  onChange,
  members,
  starterMayApproveLabel,
  requiredHint,
}: ApprovalRuleFieldsProps) {
  const { t } = useTranslation();
  const approvers = members.filter((member) => member.role !== 'guest');
  return (
    <>
      <TextField
        select
        label={t('approvals.approverUsers')}
        value={value.user_ids}
        onChange={(event) => onChange({ user_ids: chosenOf(event.target.value).map(Number) })}
        slotProps={{ select: { multiple: true } }}
      >
        {approvers.map((member) => (
          <MenuItem key={member.user_id} value={member.user_id}>
            {member.name || member.username}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={t('approvals.approverRoles')}
        value={value.roles}
        onChange={(event) => {
          const chosen = chosenOf(event.target.value);
          onChange({ roles: ProjectRoleSlug.options.filter((role) => chosen.includes(role)) });
        }}
        slotProps={{ select: { multiple: true } }}
      >
        {APPROVER_ROLES.map((role) => (
          <MenuItem key={role} value={role}>
            {t(`team.roles.${role}.title`)}
          </MenuItem>
        ))}
      </TextField>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          label={t('approvals.required')}
          value={value.required}
          onChange={(event) => onChange({ required: event.target.value })}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          helperText={requiredHint}
          fullWidth
        />
        <TextField
          label={t('approvals.timeoutSeconds')}
          value={value.timeout_seconds}
          onChange={(event) => onChange({ timeout_seconds: event.target.value })}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          fullWidth
        />
      </Stack>
      <ChoiceSelect
        label={t('approvals.onTimeout')}
        value={value.on_timeout}
        choices={[
          { value: 'reject', label: t('approvals.onTimeoutReject') },
          { value: 'approve', label: t('approvals.onTimeoutApprove') },
        ]}
        onChange={(on_timeout) => onChange({ on_timeout })}
      />
      <FormControlLabel
        control={
          <Checkbox
            checked={value.starter_may_approve}
            onChange={(event) => onChange({ starter_may_approve: event.target.checked })}
          />
        }
        label={starterMayApproveLabel}
      />
    </>
  );
}
