import type { DefaultValues } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import { getGitUrlType } from '@gantry/contract';
import type { Repository } from '@gantry/contract';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField, signInKeyOptions } from '../../../components/form-select-field.tsx';
import type { ItemDialogProps } from '../../../components/resource-list-page.tsx';
import { useItemFormDialog } from '../../../components/use-item-form-dialog.ts';
import { keysQuery } from '../../../lib/project-resources.ts';
import { repositoriesResource, useSaveRepository } from '../api/repositories-queries.ts';
import { URL_TYPES, applyUrlType, isLocalUrl } from './git-url.ts';
import { RepositoryFormSchema } from './repository-form.ts';
import type { RepositoryFormInput, RepositoryFormValues } from './repository-form.ts';

const toDefaults = (repository?: Repository): DefaultValues<RepositoryFormInput> => ({
  name: repository?.name ?? '',
  git_url: repository?.git_url ?? '',
  git_branch: repository?.git_branch ?? '',
  ssh_key_id: repository?.ssh_key_id,
});

export function RepositoryDialog({ open, projectId, item: repository, onClose }: ItemDialogProps<Repository>) {
  const { t } = useTranslation();
  const keys = useQuery({ ...keysQuery(projectId), enabled: open });
  const { form, dialogProps } = useItemFormDialog({
    open,
    onClose,
    item: repository,
    resolver: zodResolver(RepositoryFormSchema),
    defaults: toDefaults(repository),
    mutation: useSaveRepository(projectId),
    toVariables: (values: RepositoryFormValues) => ({
      id: repository?.id,
      body: {
        ...(repository ? { id: repository.id } : {}),
        name: values.name,
        git_url: values.git_url.trim(),
        git_branch: isLocalUrl(values.git_url) ? '' : values.git_branch,
        ssh_key_id: values.ssh_key_id,
      },
    }),
    texts: repositoriesResource.texts,
    nameOf: ({ values }) => values.name,
    otherErrors: [keys.error],
  });

  const url = form.watch('git_url');
  const urlType = getGitUrlType(url.trim()) ?? '';
  const local = isLocalUrl(url);

  return (
    <FormDialog {...dialogProps} maxWidth="sm">
      <FormTextField name="name" label={t('repositories.name')} required autoFocus />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <ChoiceSelect
          label={t('repositories.urlType')}
          value={urlType}
          choices={URL_TYPES.map((type) => ({ value: type, label: t(`repositories.urlTypes.${type}`) }))}
          onChange={(type) =>
            form.setValue('git_url', applyUrlType(url, type), { shouldValidate: form.formState.isSubmitted })
          }
          sx={{ minWidth: { sm: 140 } }}
        />
        <FormTextField
          name="git_url"
          label={t('repositories.url')}
          required
          placeholder="git@github.com:org/repo.git"
          helperText={t('repositories.urlHint')}
          verbatim
        />
      </Stack>
      {local ? null : (
        <FormTextField name="git_branch" label={t('repositories.branch')} required placeholder="main" verbatim />
      )}
      <FormSelectField
        name="ssh_key_id"
        label={t('repositories.accessKey')}
        required
        helperText={t('repositories.accessKeyHint')}
        options={signInKeyOptions(t, keys.data)}
      />
    </FormDialog>
  );
}
