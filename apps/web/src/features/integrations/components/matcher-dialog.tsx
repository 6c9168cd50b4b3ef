import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { IntegrationMatcher } from '@gantry/contract';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import { useItemFormDialog } from '../../../components/use-item-form-dialog.ts';
import { useSaveMatcher } from '../api/integrations-queries.ts';
import { MatcherFormSchema, getMatcherDefaults, toMatcherBody } from './integration-forms.ts';
import type { MatcherFields } from './integration-forms.ts';
import { partTextsOf } from './integration-parts.ts';
import type { PartDialogProps } from './parts-section.tsx';
import { RequestRuleDialog } from './request-rule-dialog.tsx';

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
    texts: partTextsOf('matcher').item,
    nameOf: ({ variables }) => variables.body.name,
  });

  return (
    <RequestRuleDialog {...dialogProps} part="matcher">
      <FormSelectField
        name="method"
        label={t('integrations.method')}
        required
        options={MATCH_METHODS.map((method) => ({ value: method, label: t(`integrations.methods.${method}`) }))}
      />
      <FormTextField name="value" label={t('integrations.value')} required placeholder="refs/heads/main" verbatim />
    </RequestRuleDialog>
  );
}
