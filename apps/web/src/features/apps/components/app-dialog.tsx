import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import type { App } from '@gantry/contract';
import { AppIcon } from '../../../components/app-icon.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { useItemFormDialog } from '../../../components/use-item-form-dialog.ts';
import { itemTextsOf } from '../../../lib/item-texts.ts';
import { FormStringListField } from '../../../components/string-list-editor.tsx';
import { useSaveApp } from '../api/apps-queries.ts';
import { buildAppFormSchema, getAppFormDefaults } from './app-form.ts';
import type { AppFormValues } from './app-form.ts';

interface AppDialogProps {
  open: boolean;
  /** The app to edit; a new app when absent. */
  app?: App;
  onClose: () => void;
}

export function AppDialog({ open, app, onClose }: AppDialogProps) {
  const { t } = useTranslation();
  const isNew = app === undefined;
  const { form, dialogProps } = useItemFormDialog({
    open,
    onClose,
    item: app,
    resolver: zodResolver(buildAppFormSchema(isNew)),
    defaults: getAppFormDefaults(app),
    mutation: useSaveApp(),
    toVariables: ({ id: appId, ...body }: AppFormValues) => ({ isNew, id: app?.id ?? appId, body }),
    texts: itemTextsOf('apps', 'App'),
    nameOf: ({ values }) => values.title || values.id,
  });

  const [id, title, icon, color, darkColor] = form.watch(['id', 'title', 'icon', 'color', 'dark_color']);

  return (
    <FormDialog {...dialogProps} maxWidth="sm">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
        <FormTextField
          name="id"
          label={t('apps.id')}
          required={isNew}
          disabled={!isNew}
          autoFocus={isNew}
          helperText={t('apps.idHint')}
          verbatim
        />
        <FormTextField name="title" label={t('apps.appTitle')} autoFocus={!isNew} />
      </Stack>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <FormTextField
          name="icon"
          label={t('apps.icon')}
          placeholder="language-ruby"
          helperText={t('apps.iconHint')}
          verbatim
        />
        <AppIcon
          app={{
            id: String(id ?? ''),
            title: String(title ?? ''),
            icon: String(icon ?? ''),
            color: String(color ?? ''),
            dark_color: String(darkColor ?? ''),
          }}
          size={28}
        />
      </Stack>
      <Stack direction="row" spacing={2}>
        <FormTextField name="color" label={t('apps.color')} placeholder="#cc342d" verbatim />
        <FormTextField name="dark_color" label={t('apps.darkColor')} placeholder="#ff6b6b" verbatim />
      </Stack>
      <Stack direction="row" spacing={2}>
        <FormTextField
          name="path"
          label={t('apps.path')}
          placeholder="/usr/bin/ruby"
          helperText={t('apps.pathHint')}
          verbatim
        />
        <FormTextField
          name="priority"
          label={t('apps.priority')}
          numeric
          helperText={t('apps.priorityHint')}
          sx={{ maxWidth: 160 }}
        />
      </Stack>
      <FormStringListField
        name="args"
        label={t('apps.args')}
        addLabel={t('apps.addArg')}
        itemLabel={(index) => t('apps.argN', { n: index + 1 })}
        helperText={t('apps.argsHint')}
      />
    </FormDialog>
  );
}
