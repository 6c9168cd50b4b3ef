import { useState } from 'react';
import type { FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { WorkflowStep, WorkflowVariable } from '@gantry/contract';
import { ApprovalRuleFields } from '../../../components/approvals/approval-rule-fields.tsx';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { OptionalSelect } from '../../../components/optional-select.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { environmentsQuery, inventoriesQuery, templatesQuery } from '../../../lib/project-resources.ts';
import { translateValidationMessage } from '../../../lib/i18n.ts';
import { membersQuery } from '../api/workflows-queries.ts';
import { formToStep } from '../workflow-draft.ts';
import type { StepForm } from '../workflow-draft.ts';

interface StepDialogProps {
  projectId: number;
  /** The form's first values: a new step's or the edited step's. */
  initial: StepForm;
  /** The step being edited; none for a new step. */
  step?: WorkflowStep;
  /** The workflow's variables, which a template variable can take its value from. */
  variables: readonly WorkflowVariable[];
  onSave: (step: WorkflowStep) => void;
  onRemove?: () => void;
  onClose: () => void;
}

const NONE = '';
const idOf = (value: string) => (value === NONE ? null : Number(value));

/** Adds or edits one step of the workflow being edited; the editor keeps it until the workflow is saved. */
export function StepDialog({ projectId, initial, step, variables, onSave, onRemove, onClose }: StepDialogProps) {
  const { t } = useTranslation();
  const [form, setForm] = useState<StepForm>(initial);
  const [error, setError] = useState<string | null>(null);
  const templates = useQuery({ ...templatesQuery(projectId), enabled: form.kind === 'template' });
  const inventories = useQuery({ ...inventoriesQuery(projectId), enabled: form.kind === 'template' });
  const environments = useQuery({ ...environmentsQuery(projectId), enabled: form.kind === 'template' });
  const members = useQuery({ ...membersQuery(projectId), enabled: form.kind === 'approval' });
  const template = templates.data?.find((candidate) => candidate.id === form.template_id);
  const set = (changes: Partial<StepForm>) => setForm((current) => ({ ...current, ...changes }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = formToStep(form, step);
    if (result.error !== undefined) {
      setError(translateValidationMessage(t, result.error));
      return;
    }
    onSave(result.step);
  };

  return (
    <FormDialog
      open
      title={t(step ? 'workflows.editStep' : 'workflows.newStep', { kind: t(`workflows.stepKinds.${form.kind}`) })}
      submitLabel={t('workflows.applyStep')}
      onSubmit={submit}
      onClose={onClose}
      error={error}
      maxWidth="sm"
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          label={t('workflows.stepKey')}
          value={form.key}
          onChange={(event) => set({ key: event.target.value })}
          helperText={t('workflows.stepKeyHint')}
          required
          fullWidth
        />
        <TextField
          label={t('workflows.stepName')}
          value={form.name}
          onChange={(event) => set({ name: event.target.value })}
          fullWidth
        />
      </Stack>
      <ChoiceSelect
        label={t('workflows.join')}
        value={form.join}
        choices={[
          { value: 'all', label: t('workflows.joinAll') },
          { value: 'any', label: t('workflows.joinAny') },
        ]}
        onChange={(join) => set({ join })}
        helperText={t('workflows.joinHint')}
      />

      {form.kind === 'template' ? (
        <>
          <ChoiceSelect
            required
            label={t('workflows.template')}
            value={form.template_id ?? NONE}
            choices={(templates.data ?? []).map((candidate) => ({ value: candidate.id, label: candidate.name }))}
            onChange={(template_id) => set({ template_id, survey_values: {}, variable_inputs: {} })}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <OverrideSelect
              label={t('workflows.inventory')}
              value={form.inventory_id}
              options={inventories.data}
              onChange={(inventory_id) => set({ inventory_id })}
            />
            <OverrideSelect
              label={t('workflows.environment')}
              value={form.environment_id}
              options={environments.data}
              onChange={(environment_id) => set({ environment_id })}
            />
          </Stack>
          {template && template.survey_vars.length > 0 ? (
            <>
              <Typography variant="subtitle2">{t('workflows.surveyValues')}</Typography>
              {template.survey_vars.map((variable) => {
                const label = variable.title || variable.name;
                const source = form.variable_inputs[variable.name] ?? '';
                return (
                  <Stack key={variable.name} direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                    <TextField
                      label={label}
                      value={source ? '' : (form.survey_values[variable.name] ?? '')}
                      placeholder={source ? t('workflows.fromVariable', { name: source }) : variable.default_value}
                      helperText={variable.description || undefined}
                      disabled={source !== ''}
                      slotProps={source ? { inputLabel: { shrink: true } } : undefined}
                      onChange={(event) =>
                        set({ survey_values: { ...form.survey_values, [variable.name]: event.target.value } })
                      }
                      fullWidth
                    />
                    {variables.length > 0 ? (
                      <OptionalSelect
                        label={t('workflows.valueSource')}
                        inputLabel={t('workflows.valueSourceOf', { name: label })}
                        value={source}
                        onChange={(event) =>
                          set({ variable_inputs: { ...form.variable_inputs, [variable.name]: event.target.value } })
                        }
                        noneLabel={t('workflows.fixedValue')}
                        options={variables.map(({ name }) => ({ value: name, label: name }))}
                        sx={{ minWidth: { sm: 200 } }}
                      />
                    ) : null}
                  </Stack>
                );
              })}
            </>
          ) : null}
        </>
      ) : null}

      {form.kind === 'approval' ? (
        <ApprovalRuleFields
          value={form.approval}
          onChange={(changes) => set({ approval: { ...form.approval, ...changes } })}
          members={members.data ?? []}
          starterMayApproveLabel={t('workflows.starterMayApprove')}
          requiredHint={t('workflows.requiredHint')}
        />
      ) : null}

      {form.kind === 'wait' ? (
        <TextField
          label={t('workflows.waitSeconds')}
          value={form.seconds}
          onChange={(event) => set({ seconds: event.target.value })}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          required
        />
      ) : null}

      {onRemove ? (
        <Button color="error" startIcon={<DeleteOutlineIcon />} onClick={onRemove} sx={{ alignSelf: 'flex-start' }}>
          {t('workflows.removeStep')}
        </Button>
      ) : null}
    </FormDialog>
  );
}

interface OverrideSelectProps {
  label: string;
  /** The chosen id; null keeps the template's own. */
  value: number | null;
  options: readonly { id: number; name: string }[] | undefined;
  onChange: (value: number | null) => void;
}

/** A choice a template step may override: the template's own (the first entry) or one of the project's. */
function OverrideSelect({ label, value, options, onChange }: OverrideSelectProps) {
  const { t } = useTranslation();
  return (
    <OptionalSelect
      fullWidth
      label={label}
      value={value ?? NONE}
      onChange={(event) => onChange(idOf(event.target.value))}
      noneLabel={t('workflows.templateDefault')}
      options={(options ?? []).map((option) => ({ value: option.id, label: option.name }))}
    />
  );
}
