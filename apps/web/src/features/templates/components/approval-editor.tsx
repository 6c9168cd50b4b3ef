import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ProjectRoleSlug } from '@gantry/contract';
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
        <>
          <TextField
            select
            label={t('templates.form.approverUsers')}
            value={value.user_ids}
            onChange={(event) => {
              const selected: unknown = event.target.value;
              set({ user_ids: Array.isArray(selected) ? selected.map(Number) : [] });
            }}
            slotProps={{ select: { multiple: true } }}
          >
            {(members.data ?? [])
              .filter((member) => member.role !== 'guest')
              .map((member) => (
                <MenuItem key={member.user_id} value={member.user_id}>
                  {member.name || member.username}
                </MenuItem>
              ))}
          </TextField>
          <TextField
            select
            label={t('templates.form.approverRoles')}
            value={value.roles}
            onChange={(event) => {
              const selected: unknown = event.target.value;
              const roles = Array.isArray(selected) ? selected : [];
              set({ roles: ProjectRoleSlug.options.filter((role) => roles.includes(role)) });
            }}
            slotProps={{ select: { multiple: true } }}
          >
            {ProjectRoleSlug.options
              .filter((role) => role !== 'guest')
              .map((role) => (
                <MenuItem key={role} value={role}>
                  {t(`team.roles.${role}.title`)}
                </MenuItem>
              ))}
          </TextField>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label={t('templates.form.approvalsRequired')}
              value={value.required}
              onChange={(event) => set({ required: event.target.value })}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              fullWidth
            />
            <TextField
              label={t('templates.form.approvalTimeout')}
              value={value.timeout_seconds}
              onChange={(event) => set({ timeout_seconds: event.target.value })}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              fullWidth
            />
          </Stack>
          <TextField
            select
            label={t('templates.form.onTimeout')}
            value={value.on_timeout}
            onChange={(event) => set({ on_timeout: event.target.value === 'approve' ? 'approve' : 'reject' })}
          >
            <MenuItem value="reject">{t('templates.form.onTimeoutReject')}</MenuItem>
            <MenuItem value="approve">{t('templates.form.onTimeoutApprove')}</MenuItem>
          </TextField>
          <FormControlLabel
            control={
              <Checkbox
                checked={value.starter_may_approve}
                onChange={(event) => set({ starter_may_approve: event.target.checked })}
              />
            }
            label={t('templates.form.starterMayApprove')}
          />
        </>
      ) : null}
      {error ? (
        <Typography variant="body2" color="error" role="alert">
          {error}
        </Typography>
      ) : null}
    </Stack>
  );
}
