import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonAddAlt1Icon from '@mui/icons-material/PersonAddAlt1';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { Permission } from '@gantry/contract';
import type { ProjectRoleSlug, TeamMember } from '@gantry/contract';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { ConfirmDialog, confirmItem } from '../../../components/confirm-dialog.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { NewButton } from '../../../components/new-button.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { TablePage } from '../../../components/table-page.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { projectsQuery, useProjectAccess } from '../../../lib/shared-queries.ts';
import { storage } from '../../../lib/storage.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { teamQuery, useLeaveProject, useRemoveTeamMember, useUpdateTeamMemberRole } from '../api/team-queries.ts';
import { PROJECT_ROLES, getRoleLabel } from './role-labels.ts';
import { TeamMemberDialog } from './team-member-dialog.tsx';
import { deleteColumn } from '../../../components/delete-icon-button.tsx';

export function TeamPage() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const snackbar = useSnackbar();
  const access = useProjectAccess(projectId);
  const team = useQuery(teamQuery(projectId));
  const projects = useQuery(projectsQuery);
  const updateRole = useUpdateTeamMemberRole(projectId);
  const removeMember = useRemoveTeamMember(projectId);
  const leave = useLeaveProject(projectId);
  const addDialog = useDialogState();
  const removeDialog = useDialogState<TeamMember>();
  const leaveDialog = useDialogState();

  const canManage = access.can(Permission.manageProjectUsers);
  const projectName = projects.data?.find((project) => project.id === projectId)?.name ?? '';

  const changeRole = (member: TeamMember, role: ProjectRoleSlug) =>
    updateRole.mutate({ userId: member.user_id, role }, { onError: snackbar.showFailure });

  const removeMemberConfirmed = (member: TeamMember) =>
    removeMember.mutate(member.user_id, {
      onSuccess: () => snackbar.showSuccess(t('team.removed', { name: member.name })),
      onError: snackbar.showFailure,
    });

  const leaveConfirmed = () =>
    leave.mutate(undefined, {
      onSuccess: () => {
        storage.setLastProjectId(null);
        // The seed reloads the page: every cached view of this project is gone with it.
        window.location.assign('/');
      },
      onError: snackbar.showFailure,
    });

  const columns: Column<TeamMember>[] = [
    { id: 'name', header: t('team.name'), render: (member) => member.name },
    { id: 'username', header: t('team.username'), hideBelow: 'sm', render: (member) => member.username },
    {
      id: 'role',
      header: t('team.role'),
      width: 160,
      render: (member) =>
        canManage ? (
          <ChoiceSelect
            size="small"
            variant="standard"
            value={member.role}
            choices={PROJECT_ROLES.map((role) => ({ value: role, label: getRoleLabel(t, role) }))}
            onChange={(role) => changeRole(member, role)}
            slotProps={{ htmlInput: { 'aria-label': t('team.roleOf', { name: member.name }) } }}
            sx={{ minWidth: 140 }}
          />
        ) : (
          <Chip size="small" label={getRoleLabel(t, member.role)} variant="outlined" />
        ),
    },
  ];
  if (canManage) {
    columns.push(
      deleteColumn({
        width: 72,
        title: t('team.remove'),
        labelOf: (member) => t('team.removeMember', { name: member.name }),
        onDelete: (member) => removeDialog.show(member),
      }),
    );
  }

  return (
    <TablePage
      section="team"
      actions={
        <>
          <Button
            variant="outlined"
            color="inherit"
            startIcon={<LogoutIcon />}
            onClick={() => leaveDialog.show()}
            disabled={!access.isReady || access.role === 'owner' || leave.isPending}
          >
            {t('team.leave')}
          </Button>
          {canManage ? (
            <NewButton label={t('team.newMember')} icon={<PersonAddAlt1Icon />} onClick={() => addDialog.show()} />
          ) : null}
        </>
      }
      columns={columns}
      query={team}
      getRowKey={(member) => member.user_id}
    >
      <TeamMemberDialog
        open={addDialog.open}
        projectId={projectId}
        members={team.data ?? []}
        onClose={addDialog.close}
      />
      <ConfirmDialog
        {...confirmItem(removeDialog, removeMemberConfirmed)}
        title={t('team.removeTitle')}
        message={t('team.removeConfirm', { name: removeDialog.item?.name ?? '' })}
      />
      <ConfirmDialog
        open={leaveDialog.open}
        title={t('team.leaveTitle')}
        message={t('team.leaveConfirm', { name: projectName })}
        confirmLabel={t('team.leave')}
        onConfirm={leaveConfirmed}
        onClose={leaveDialog.close}
      />
    </TablePage>
  );
}
