import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { IntegrationMatcher } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { useSaveMatcher } from '../api/integrations-queries.ts';
import { INTEGRATION_DIALOG_WIDTH } from './integration-dialog.tsx';
import { MatcherFormSchema, getMatcherDefaults, showsKey, toMatcherBody } from './integration-forms.ts';
import type { MatcherFields } from './integration-forms.ts';

export const MATCH_METHODS = ['equals', 'unequals', 'contains'] as const;

interface MatcherDialogProps {
  open: boolean;
  projectId: number;
  integrationId: number;
  matcher?: IntegrationMatcher;
  onClose: () => void;
}

/** A condition every incoming request must meet before the integration starts its template. */
export function MatcherDialog({ open, projectId, integrationId, matcher, onClose }: MatcherDialogProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const save = useSaveMatcher(projectId, integrationId);
  const isNew = matcher === undefined;
  const form = useForm<MatcherFields>({ resolver: zodResolver(MatcherFormSchema), defaultValues: getMatcherDefaults(matcher) });
  const source = useWatch({ control: form.control, name: 'match_type' });
  const bodyDataType = useWatch({ control: form.control, name: 'body_data_type' });

  useEffect(() => {
    if (!open) return;
    form.reset(getMatcherDefaults(matcher));
    save.reset();
    // Reset when the dialog opens, or reopens for another matcher.
  }, [open, matcher?.id]);

  const submit = form.handleSubmit((fields) => {
    const body = toMatcherBody(fields, integrationId, matcher);
    save.mutate(
      { matcherId: matcher?.id, body },
      {
        onSuccess: () => {
          snackbar.showSuccess(t(isNew ? 'integrations.matcherCreated' : 'integrations.matcherSaved', { name: body.name }));
          onClose();
        },
      },
    );
  });

  return (
    <FormDialog
      open={open}
      width={INTEGRATION_DIALOG_WIDTH}
      title={isNew ? t('integrations.newMatcher') : t('integrations.editMatcher')}
      submitLabel={isNew ? t('common.create') : t('common.save')}
      onSubmit={submit}
      onClose={onClose}
      submitting={save.isPending}
      error={save.error ? getErrorMessage(save.error) : null}
    >
      <FormTextField control={form.control} name="name" label={t('integrations.name')} required autoFocus />
      <FormSelectField
        control={form.control}
        name="match_type"
        label={t('integrations.matchSource')}
        required
        options={[
          { value: 'body', label: t('integrations.sources.body') },
          { value: 'header', label: t('integrations.sources.header') },
        ]}
      />
      {source === 'body' ? (
        <FormSelectField
          control={form.control}
          name="body_data_type"
          label={t('integrations.bodyDataFormat')}
          required
          options={[
            { value: 'json', label: t('integrations.bodyDataTypes.json') },
            { value: 'string', label: t('integrations.bodyDataTypes.string') },
          ]}
        />
      ) : null}
      {showsKey(source, bodyDataType) ? (
        <FormTextField
          control={form.control}
          name="key"
          label={source === 'header' ? t('integrations.headerName') : t('integrations.jsonPath')}
          required
          placeholder={source === 'header' ? 'X-GitHub-Event' : 'ref'}
          slotProps={{ htmlInput: { spellCheck: false } }}
        />
      ) : null}
      <FormSelectField
        control={form.control}
        name="method"
        label={t('integrations.method')}
        required
        options={MATCH_METHODS.map((method) => ({ value: method, label: t(`integrations.methods.${method}`) }))}
      />
      <FormTextField control={form.control} name="value" label={t('integrations.value')} required placeholder="refs/heads/main" slotProps={{ htmlInput: { spellCheck: false } }} />
    </FormDialog>
  );
}
