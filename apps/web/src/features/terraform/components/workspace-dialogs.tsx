import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { requiredString, workspaceTypeOf } from '@gantry/contract';
import type { Template } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField, namedOptions } from '../../../components/form-select-field.tsx';
import { useFormDialog } from '../../../components/use-form-dialog.ts';
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
type NewWorkspaceValues = z.output<typeof NewWorkspaceForm>;

interface DialogProps {
  open: boolean;
  onClose: () => void;
}

interface WorkspaceDialogProps extends DialogProps {
  template: Template;
  /** The dialog added a workspace to the template (a new one, or one it attached): its id. */
  onAdded: (id: number) => void;
}

/** A new workspace of the template: its name is also the terraform workspace it selects. */
export function NewWorkspaceDialog({ open, onClose, template, onAdded }: WorkspaceDialogProps) {
  const { t } = useTranslation();
  const keys = useQuery({ ...keysQuery(template.project_id), enabled: open });
  const none = keys.data?.find((key) => key.type === 'none');
  const { dialogProps } = useFormDialog({
    open,
    onClose,
    isNew: true,
    // The keys arrive after the dialog opens: the form starts again with the "none" key picked.
    itemKey: keys.data,
    resolver: zodResolver(NewWorkspaceForm),
    defaults: { name: '', ssh_key_id: none?.id ?? null },
    mutation: useCreateWorkspace(template.project_id),
    toVariables: (values: NewWorkspaceValues) => ({
      name: values.name,
      type: workspaceTypeOf(template.app),
      inventory: values.name,
      ssh_key_id: values.ssh_key_id,
      template_id: template.id,
    }),
    onSaved: ({ result: workspace }) => onAdded(workspace.id),
    otherErrors: [keys.error],
  });

  return (
    <FormDialog {...dialogProps} title={t('terraform.newWorkspace')}>
      <FormTextField name="name" label={t('terraform.workspaceName')} required autoFocus />
      <FormSelectField
        name="ssh_key_id"
        label={t('terraform.moduleKey')}
        helperText={t('terraform.moduleKeyHint')}
        required
        options={namedOptions(keys.data)}
      />
    </FormDialog>
  );
}

const AttachForm = z.object({ inventory_id: requiredId('Inventory is required') });
type AttachValues = z.output<typeof AttachForm>;

/** Attaches a workspace of the template's app that no template holds. */
export function AttachWorkspaceDialog({ open, onClose, template, onAdded }: WorkspaceDialogProps) {
  const { t } = useTranslation();
  const inventories = useQuery({ ...inventoriesQuery(template.project_id, template.app), enabled: open });
  const { dialogProps } = useFormDialog({
    open,
    onClose,
    resolver: zodResolver(AttachForm),
    defaults: { inventory_id: null },
    mutation: useWorkspaceAction(template.project_id, template.id),
    toVariables: (values: AttachValues) => ({ action: 'attach' as const, inventoryId: values.inventory_id }),
    onSaved: ({ values }) => onAdded(values.inventory_id),
    otherErrors: [inventories.error],
  });
  const free = (inventories.data ?? []).filter(
    (inventory) => inventory.type === workspaceTypeOf(template.app) && inventory.template_id === null,
  );

  return (
    <FormDialog {...dialogProps} title={t('terraform.attachWorkspace')} submitLabel={t('terraform.attach')}>
      <FormSelectField
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
  const { dialogProps } = useFormDialog({
    open,
    onClose,
    isNew: true,
    resolver: zodResolver(AliasForm),
    defaults: { auth_key_id: null },
    mutation: useCreateAlias(projectId, inventoryId),
    toVariables: (values: AliasValues) => ({ auth_key_id: values.auth_key_id }),
    otherErrors: [keys.error],
  });
  const loginPasswordKeys = (keys.data ?? []).filter((key) => key.type === 'login_password');

  return (
    <FormDialog {...dialogProps} title={t('terraform.addAlias')}>
      <FormSelectField
        name="auth_key_id"
        label={t('terraform.credentials')}
        required
        helperText={
          keys.isSuccess && loginPasswordKeys.length === 0
            ? t('terraform.noLoginPasswordKeys')
            : t('terraform.credentialsHint')
        }
        options={namedOptions(loginPasswordKeys)}
      />
    </FormDialog>
  );
}
