import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { IntegrationMatcher } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import { useItemFormDialog } from '../../../components/use-item-form-dialog.ts';
import { useSaveMatcher } from '../api/integrations-queries.ts';
import { MatcherFormSchema, getMatcherDefaults, toMatcherBody } from './integration-forms.ts';
import type { MatcherFields } from './integration-forms.ts';
import { INTEGRATION_DIALOG_WIDTH } from './integration-dialog.tsx';
import type { PartDialogProps } from './parts-section.tsx';
import { RequestPartFields } from './request-part-fields.tsx';

const MATCH_METHODS = ['equals', 'unequals', 'contains'] as const;

/** A condition every incoming request must meet before the integration starts its template. */
export function MatcherDialog({
  open,
  projectId,
  integrationId,
  item: matcher,
  onClose,
}: PartDialogProps<IntegrationMatcher>) {
  const { t } = useTranslation();
  const { dialogProps } = useItemFormDialog({
    open,
    onClose,
    item: matcher,
    resolver: zodResolver(MatcherFormSchema),
    defaults: getMatcherDefaults(matcher),
    mutation: useSaveMatcher(projectId, integrationId),
    toVariables: (fields: MatcherFields) => ({ id: matcher?.id, body: toMatcherBody(fields, integrationId, matcher) }),
    texts: {
      newTitle: 'integrations.newMatcher',
      editTitle: 'integrations.editMatcher',
      created: 'integrations.matcherCreated',
      saved: 'integrations.matcherSaved',
    },
    nameOf: ({ variables }) => variables.body.name,
  });

  return (
    <FormDialog {...dialogProps} width={INTEGRATION_DIALOG_WIDTH}>
      <FormTextField name="name" label={t('integrations.name')} required autoFocus />
      <RequestPartFields
        sourceField="match_type"
        sourceLabel={t('integrations.matchSource')}
        bodyDataTypeLabel={t('integrations.bodyDataFormat')}
        jsonPathPlaceholder="ref"
      />
      <FormSelectField
        name="method"
        label={t('integrations.method')}
        required
        options={MATCH_METHODS.map((method) => ({ value: method, label: t(`integrations.methods.${method}`) }))}
      />
      <FormTextField
        name="value"
        label={t('integrations.value')}
        required
        placeholder="refs/heads/main"
        slotProps={{ htmlInput: { spellCheck: false } }}
      />
    </FormDialog>
  );
}
