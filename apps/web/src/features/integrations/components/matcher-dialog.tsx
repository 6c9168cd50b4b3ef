import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { IntegrationMatcher } from '@gantry/contract';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import { useSaveMatcher } from '../api/integrations-queries.ts';
import { MatcherFormSchema, getMatcherDefaults, toMatcherBody } from './integration-forms.ts';
import type { MatcherFields } from './integration-forms.ts';
import { IntegrationRuleDialog, RequestPartFields } from './integration-rule-dialog.tsx';

const MATCH_METHODS = ['equals', 'unequals', 'contains'] as const;

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
  const save = useSaveMatcher(projectId, integrationId);
  const isNew = matcher === undefined;
  const form = useForm<MatcherFields>({
    resolver: zodResolver(MatcherFormSchema),
    defaultValues: getMatcherDefaults(matcher),
  });
  const source = useWatch({ control: form.control, name: 'match_type' });
  const bodyDataType = useWatch({ control: form.control, name: 'body_data_type' });

  return (
    <IntegrationRuleDialog
      open={open}
      ruleId={matcher?.id}
      form={form}
      defaults={getMatcherDefaults(matcher)}
      title={isNew ? t('integrations.newMatcher') : t('integrations.editMatcher')}
      toBody={(fields) => toMatcherBody(fields, integrationId, matcher)}
      save={save}
      savedMessage={(body) =>
        t(isNew ? 'integrations.matcherCreated' : 'integrations.matcherSaved', { name: body.name })
      }
      onClose={onClose}
    >
      <FormTextField control={form.control} name="name" label={t('integrations.name')} required autoFocus />
      <RequestPartFields
        control={form.control}
        names={{ source: 'match_type', bodyDataType: 'body_data_type', key: 'key' }}
        source={source}
        bodyDataType={bodyDataType}
        sourceLabel={t('integrations.matchSource')}
        bodyDataTypeLabel={t('integrations.bodyDataFormat')}
        jsonPathPlaceholder="ref"
      />
      <FormSelectField
        control={form.control}
        name="method"
        label={t('integrations.method')}
        required
        options={MATCH_METHODS.map((method) => ({ value: method, label: t(`integrations.methods.${method}`) }))}
      />
      <FormTextField
        control={form.control}
        name="value"
        label={t('integrations.value')}
        required
        placeholder="refs/heads/main"
        slotProps={{ htmlInput: { spellCheck: false } }}
      />
    </IntegrationRuleDialog>
  );
}
