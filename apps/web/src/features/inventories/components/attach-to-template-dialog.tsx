import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { workspaceTypeOf, workspacesApi } from '@gantry/contract';
import type { Inventory } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { api, getErrorMessage } from '../../../lib/api-client.ts';
import { resourceKeys, templatesQuery } from '../../../lib/project-resources.ts';

interface AttachToTemplateDialogProps {
  open: boolean;
  projectId: number;
  workspace: Inventory | undefined;
  onClose: () => void;
}

/** Gives a workspace nobody holds to a terraform or tofu template of the matching kind. */
export function AttachToTemplateDialog({ open, projectId, workspace, onClose }: AttachToTemplateDialogProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const templates = useQuery({ ...templatesQuery(projectId), enabled: open });
  const [templateId, setTemplateId] = useState<number | ''>('');
  const [missing, setMissing] = useState(false);
  const attach = useMutation({
    mutationFn: (id: number) =>
      api(workspacesApi.attach, { params: { projectId, templateId: id, inventoryId: workspace?.id ?? 0 } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resourceKeys.inventories(projectId) }),
  });
  const matching = (templates.data ?? []).filter(
    (template) => workspace !== undefined && workspaceTypeOf(template.app) === workspace.type,
  );

  useEffect(() => {
    if (!open) return;
    setTemplateId('');
    setMissing(false);
    attach.reset();
  }, [open]);

  const failure = attach.error ?? templates.error;
  return (
    <FormDialog
      open={open}
      title={t('terraform.attachToTemplate')}
      submitLabel={t('terraform.attach')}
      submitting={attach.isPending}
      error={failure ? getErrorMessage(failure) : null}
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        if (templateId === '') {
          setMissing(true);
          return;
        }
        attach.mutate(templateId, {
          onSuccess: () => {
            snackbar.showSuccess(
              t('terraform.attachedTo', {
                name: workspace?.name ?? '',
                template: matching.find((x) => x.id === templateId)?.name ?? '',
              }),
            );
            onClose();
          },
        });
      }}
    >
      <TextField
        select
        required
        fullWidth
        label={t('terraform.template')}
        value={templateId}
        onChange={(event) => {
          setTemplateId(Number(event.target.value));
          setMissing(false);
        }}
        error={missing}
        helperText={missing ? t('terraform.templateRequired') : undefined}
      >
        {matching.map((template) => (
          <MenuItem key={template.id} value={template.id}>
            {template.name}
          </MenuItem>
        ))}
      </TextField>
    </FormDialog>
  );
}
