import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormSelectField, namedOptions } from './form-select-field.tsx';

type NamedRows = readonly { id: number; name: string }[] | undefined;

interface RunTargetFieldsProps {
  /**
   * The section that keeps the fields' texts: `target`, `targetTemplate`, `targetWorkflow`, `template`,
   * `workflow`.
   */
  section: 'integrations' | 'schedules';
  /** The form's `target` as the dialog watches it. */
  target: 'template' | 'workflow';
  templates: NamedRows;
  workflows: NamedRows;
  workflowHelperText?: string;
  /** Fields that belong to a workflow target only, shown below the workflow. */
  workflowFields?: ReactNode;
}

/**
 * What a schedule or an integration starts, a template's task or a workflow's run, and which one:
 * the form's `target`, then its `template_id` or its `workflow_id`.
 */
export function RunTargetFields({
  section,
  target,
  templates,
  workflows,
  workflowHelperText,
  workflowFields,
}: RunTargetFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <FormSelectField
        name="target"
        label={t(`${section}.target`)}
        options={[
          { value: 'template', label: t(`${section}.targetTemplate`) },
          { value: 'workflow', label: t(`${section}.targetWorkflow`) },
        ]}
      />
      {target === 'workflow' ? (
        <>
          <FormSelectField
            name="workflow_id"
            label={t(`${section}.workflow`)}
            required
            helperText={workflowHelperText}
            options={namedOptions(workflows)}
          />
          {workflowFields}
        </>
      ) : (
        <FormSelectField
          name="template_id"
          label={t(`${section}.template`)}
          required
          options={namedOptions(templates)}
        />
      )}
    </>
  );
}
