import type { DefaultValues } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import ListItemText from '@mui/material/ListItemText';
import { InventoryBody, normalizeInventoryFields } from '@gantry/contract';
import type { Inventory } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField, namedOptions, signInKeyOptions } from '../../../components/form-select-field.tsx';
import type { ItemDialogProps } from '../../../components/resource-list-page.tsx';
import { useItemFormDialog } from '../../../components/use-item-form-dialog.ts';
import { keysQuery, repositoriesQuery } from '../../../lib/project-resources.ts';
import { inventoriesResource, useSaveInventory } from '../api/inventories-queries.ts';

/** The kinds of inventory the form creates; workspaces belong to terraform templates. */
const FORM_INVENTORY_TYPES = ['static', 'static-yaml', 'file'] as const;

type InventoryFormInput = z.input<typeof InventoryBody>;
type InventoryFormValues = z.output<typeof InventoryBody>;

const toDefaults = (inventory?: Inventory): DefaultValues<InventoryFormInput> => ({
  name: inventory?.name ?? '',
  type: inventory?.type ?? 'static',
  inventory: inventory?.inventory ?? '',
  ssh_key_id: inventory?.ssh_key_id ?? null,
  become_key_id: inventory?.become_key_id ?? null,
  repository_id: inventory?.repository_id ?? null,
});

export function InventoryDialog({ open, projectId, item: inventory, onClose }: ItemDialogProps<Inventory>) {
  const { t } = useTranslation();
  const keys = useQuery({ ...keysQuery(projectId), enabled: open });
  const repositories = useQuery({ ...repositoriesQuery(projectId), enabled: open });
  const { form, dialogProps } = useItemFormDialog({
    open,
    onClose,
    item: inventory,
    resolver: zodResolver(InventoryBody),
    defaults: toDefaults(inventory),
    mutation: useSaveInventory(projectId),
    toVariables: (values: InventoryFormValues) => ({
      id: inventory?.id,
      body: { ...(inventory ? { id: inventory.id } : {}), ...normalizeInventoryFields(values) },
    }),
    texts: inventoriesResource.texts,
    nameOf: ({ values }) => values.name,
    otherErrors: [keys.error, repositories.error],
  });
  const type = form.watch('type');
  const loginPasswordKeys = (keys.data ?? []).filter((key) => key.type === 'login_password');

  return (
    <FormDialog {...dialogProps} maxWidth="sm">
      <FormTextField name="name" label={t('inventories.name')} required autoFocus />
      <FormSelectField
        name="ssh_key_id"
        label={t('inventories.userCredentials')}
        required
        helperText={t('inventories.userCredentialsHint')}
        options={signInKeyOptions(t, keys.data)}
      />
      <FormSelectField
        name="become_key_id"
        label={t('inventories.becomeKey')}
        helperText={t('inventories.becomeKeyHint')}
        options={[{ value: null, label: <em>{t('inventories.none')}</em> }, ...namedOptions(loginPasswordKeys)]}
      />
      <FormSelectField
        name="type"
        label={t('inventories.type')}
        required
        options={FORM_INVENTORY_TYPES.map((value) => ({
          value,
          label: (
            <ListItemText
              primary={t(`inventories.types.${value}`)}
              secondary={t(`inventories.typeHints.${value}`)}
              sx={{ my: 0 }}
            />
          ),
        }))}
      />
      {type === 'file' ? (
        <>
          <FormTextField
            name="inventory"
            label={t('inventories.path')}
            required
            placeholder="inventories/production.ini"
            helperText={t('inventories.pathHint')}
            verbatim
          />
          <FormSelectField
            name="repository_id"
            label={t('inventories.repository')}
            helperText={t('inventories.repositoryHint')}
            options={[
              { value: null, label: <em>{t('inventories.templateRepository')}</em> },
              ...namedOptions(repositories.data),
            ]}
          />
        </>
      ) : (
        <FormTextField
          name="inventory"
          label={type === 'static-yaml' ? t('inventories.yamlContent') : t('inventories.iniContent')}
          multiline
          minRows={8}
          maxRows={20}
          placeholder={
            type === 'static-yaml'
              ? 'all:\n  hosts:\n    web1.example.com:'
              : '[web]\nweb1.example.com\nweb2.example.com'
          }
          verbatim
          slotProps={{ htmlInput: { style: { fontFamily: 'monospace', fontSize: 13 } } }}
        />
      )}
    </FormDialog>
  );
}
