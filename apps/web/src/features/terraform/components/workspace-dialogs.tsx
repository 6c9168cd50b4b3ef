import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { requiredString, workspaceTypeOf } from '@gantry/contract';
import type { Template } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { inventoriesQuery, keysQuery } from '../../../lib/project-resources.ts';
import { useCreateAlias, useCreateWorkspace, useWorkspaceAction } from '../api/terraform-queries.ts';

const KEY_REQUIRED = 'Key is required';

/** A picked id: null until chosen, then required with the given message. */
const requiredId = (message: string) =>
  z
    .number()
    .int()
    .positive()
    .nullable()
    .transform((value, ctx) => {
      if (value === null) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return value;
    });

const NewWorkspaceForm = z.object({
  name: requiredString('Workspace name'),
  ssh_key_id: requiredId(KEY_REQUIRED),
});
type NewWorkspaceInput = z.input<typeof NewWorkspaceForm>;
type NewWorkspaceValues = z.output<typeof NewWorkspaceForm>;

interface DialogProps {
  open: boolean;
  onClose: () => void;
}

/** A new workspace of the template: its name is also the terraform workspace it selects. */
export function NewWorkspaceDialog({
  open,
  onClose,
  template,
  onCreated,
}: DialogProps & { template: Template; onCreated: (id: number) => void }) {
  const { t } = useTranslation();
  const keys = useQuery({ ...keysQuery(template.project_id), enabled: open });
  const create = useCreateWorkspace(template.project_id);
  const form = useForm<NewWorkspaceInput, unknown, NewWorkspaceValues>({
    resolver: zodResolver(NewWorkspaceForm),
    defaultValues: { name: '', ssh_key_id: null },
  });

  useEffect(() => {
    if (!open) return;
    const none = keys.data?.find((key) => key.type === 'none');
    form.reset({ name: '', ssh_key_id: none?.id ?? null });
    create.reset();
  }, [open, keys.data]);

  const submit = form.handleSubmit((values) =>
    create.mutate(
      {
        name: values.name,
        type: workspaceTypeOf(template.app),
        inventory: values.name,
        ssh_key_id: values.ssh_key_id,
        template_id: template.id,
      },
      {
        onSuccess: (workspace) => {
          onCreated(workspace.id);
          onClose();
        },
      },
    ),
  );
  const failure = create.error ?? keys.error;

  return (
    <FormDialog
      open={open}
      title={t('terraform.newWorkspace')}
      submitLabel={t('common.create')}
      onSubmit={submit}
      onClose={onClose}
      submitting={create.isPending}
      error={failure ? getErrorMessage(failure) : null}
    >
      <FormTextField control={form.control} name="name" label={t('terraform.workspaceName')} required autoFocus />
      <FormSelectField
        control={form.control}
        name="ssh_key_id"
        label={t('terraform.moduleKey')}
        helperText={t('terraform.moduleKeyHint')}
        required
        options={(keys.data ?? []).map((key) => ({ value: key.id, label: key.name }))}
      />
    </FormDialog>
  );
}

const AttachForm = z.object({ inventory_id: requiredId('Inventory is required') });
type AttachInput = z.input<typeof AttachForm>;
type AttachValues = z.output<typeof AttachForm>;

/** Attaches a workspace of the template's app that no template holds. */
export function AttachWorkspaceDialog({
  open,
  onClose,
  template,
  onAttached,
}: DialogProps & { template: Template; onAttached: (id: number) => void }) {
  const { t } = useTranslation();
  const inventories = useQuery({ ...inventoriesQuery(template.project_id, template.app), enabled: open });
  const attach = useWorkspaceAction(template.project_id, template.id);
  const form = useForm<AttachInput, unknown, AttachValues>({
    resolver: zodResolver(AttachForm),
    defaultValues: { inventory_id: null },
  });
  const free = (inventories.data ?? []).filter(
    (inventory) => inventory.type === workspaceTypeOf(template.app) && inventory.template_id === null,
  );

  useEffect(() => {
    if (!open) return;
    form.reset({ inventory_id: null });
    attach.reset();
  }, [open]);

  const submit = form.handleSubmit((values) =>
    attach.mutate(
      { action: 'attach', inventoryId: values.inventory_id },
      {
        onSuccess: () => {
          onAttached(values.inventory_id);
          onClose();
        },
      },
    ),
  );
  const failure = attach.error ?? inventories.error;

  return (
    <FormDialog
      open={open}
      title={t('terraform.attachWorkspace')}
      submitLabel={t('terraform.attach')}
      onSubmit={submit}
      onClose={onClose}
      submitting={attach.isPending}
      error={failure ? getErrorMessage(failure) : null}
    >
      <FormSelectField
        control={form.control}
        name="inventory_id"
        label={t('terraform.workspace')}
        required
        helperText={inventories.isSuccess && free.length === 0 ? t('terraform.noFreeWorkspaces') : undefined}
        options={free.map((inventory) => ({
          value: inventory.id,
          label: `${inventory.name} (${inventory.inventory})`,
        }))}
      />
    </FormDialog>
  );
}

const AliasForm = z.object({ auth_key_id: requiredId(KEY_REQUIRED) });
type AliasInput = z.input<typeof AliasForm>;
type AliasValues = z.output<typeof AliasForm>;

/** A new backend address of the workspace; terraform signs in with the chosen login and password. */
export function AddAliasDialog({
  open,
  onClose,
  projectId,
  inventoryId,
}: DialogProps & { projectId: number; inventoryId: number }) {
  const { t } = useTranslation();
  const keys = useQuery({ ...keysQuery(projectId), enabled: open });
  const create = useCreateAlias(projectId, inventoryId);
  const form = useForm<AliasInput, unknown, AliasValues>({
    resolver: zodResolver(AliasForm),
    defaultValues: { auth_key_id: null },
  });
  const loginPasswordKeys = (keys.data ?? []).filter((key) => key.type === 'login_password');

  useEffect(() => {
    if (!open) return;
    form.reset({ auth_key_id: null });
    create.reset();
  }, [open]);

  const submit = form.handleSubmit((values) =>
    create.mutate({ auth_key_id: values.auth_key_id }, { onSuccess: onClose }),
  );
  const failure = create.error ?? keys.error;

  return (
    <FormDialog
      open={open}
      title={t('terraform.addAlias')}
      submitLabel={t('common.create')}
      onSubmit={submit}
      onClose={onClose}
      submitting={create.isPending}
      error={failure ? getErrorMessage(failure) : null}
    >
      <FormSelectField
        control={form.control}
        name="auth_key_id"
        label={t('terraform.credentials')}
        required
        helperText={
          keys.isSuccess && loginPasswordKeys.length === 0
            ? t('terraform.noLoginPasswordKeys')
            : t('terraform.credentialsHint')
        }
        options={loginPasswordKeys.map((key) => ({ value: key.id, label: key.name }))}
      />
    </FormDialog>
  );
}
