import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import Autocomplete from '@mui/material/Autocomplete';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import { AddTeamMemberBody, ProjectRoleSlug } from '@gantry/contract';
import type { TeamMember, UserSummary } from '@gantry/contract';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { translateValidationMessage } from '../../../lib/i18n.ts';
import { usersQuery } from '../../../lib/shared-queries.ts';
import { useAddTeamMember } from '../api/team-queries.ts';
import { PROJECT_ROLES, getRoleLabel } from './role-labels.ts';

/** The seed has both fields of this form report the user-required text. */
const TeamMemberFormSchema = AddTeamMemberBody.extend({
  role: z.enum(ProjectRoleSlug.options, { error: 'User is required' }),
});
type TeamMemberFormInput = z.input<typeof TeamMemberFormSchema>;
type TeamMemberFormValues = z.output<typeof TeamMemberFormSchema>;

interface TeamMemberDialogProps {
  open: boolean;
  projectId: number;
  members: readonly TeamMember[];
  onClose: () => void;
}

export function TeamMemberDialog({ open, projectId, members, onClose }: TeamMemberDialogProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const users = useQuery({ ...usersQuery, enabled: open });
  const add = useAddTeamMember(projectId);
  const form = useForm<TeamMemberFormInput, unknown, TeamMemberFormValues>({
    resolver: zodResolver(TeamMemberFormSchema),
  });

  useEffect(() => {
    if (open) {
      form.reset({});
      add.reset();
    }
    // Reset only when the dialog opens; form and mutation objects are stable enough for that.
  }, [open]);

  const memberIds = new Set(members.map((member) => member.user_id));
  const candidates: UserSummary[] = (users.data ?? []).filter((user) => !memberIds.has(user.id));

  const submit = form.handleSubmit((values) =>
    add.mutate(values, {
      onSuccess: () => {
        const user = candidates.find((candidate) => candidate.id === values.user_id);
        snackbar.showSuccess(t('team.added', { name: user?.name ?? '' }));
        onClose();
      },
    }),
  );

  return (
    <FormDialog
      open={open}
      form={form}
      title={t('team.newMember')}
      submitLabel={t('team.link')}
      onSubmit={submit}
      onClose={onClose}
      submitting={add.isPending}
      error={add.error ? getErrorMessage(add.error) : users.error ? getErrorMessage(users.error) : null}
    >
      <Controller
        name="user_id"
        render={({ field, fieldState }) => (
          <Autocomplete
            options={candidates}
            loading={users.isPending}
            value={candidates.find((user) => user.id === field.value) ?? null}
            onChange={(_, user) => field.onChange(user?.id)}
            getOptionLabel={(user) => user.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            noOptionsText={t('team.noUsersToAdd')}
            renderOption={({ key, ...props }, user) => (
              <li key={key} {...props}>
                <ListItemText primary={user.name} secondary={user.username} />
              </li>
            )}
            renderInput={(params) => (
              <TextField
                {...params}
                inputRef={field.ref}
                label={t('team.user')}
                required
                error={fieldState.error !== undefined}
                helperText={
                  fieldState.error?.message ? translateValidationMessage(t, fieldState.error.message) : undefined
                }
              />
            )}
          />
        )}
      />
      <Controller
        name="role"
        render={({ field, fieldState }) => (
          <ChoiceSelect
            label={t('team.role')}
            required
            name={field.name}
            inputRef={field.ref}
            value={field.value ?? ''}
            choices={PROJECT_ROLES.map((role) => ({
              value: role,
              label: <ListItemText primary={getRoleLabel(t, role)} secondary={t(`team.roles.${role}.hint`)} />,
            }))}
            onChange={field.onChange}
            error={fieldState.error !== undefined}
            helperText={
              fieldState.error?.message
                ? translateValidationMessage(t, fieldState.error.message)
                : field.value
                  ? t(`team.roles.${field.value}.hint`)
                  : undefined
            }
            slotProps={{ select: { renderValue: (value) => getRoleLabel(t, String(value)) } }}
            fullWidth
          />
        )}
      />
    </FormDialog>
  );
}
