import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { WorkflowVariable } from '@gantry/contract';
import { DataTable } from '../../../components/data-table.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { RowActions } from '../../../components/row-actions.tsx';
import { VariableDialog } from './variable-dialog.tsx';

interface VariablesTabProps {
  variables: readonly WorkflowVariable[];
  editable: boolean;
  onChange: (variables: WorkflowVariable[]) => void;
}

/** The workflow's variables: asked for when a run starts, mapped by steps to their templates' variables. */
export function VariablesTab({ variables, editable, onChange }: VariablesTabProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ variable?: WorkflowVariable } | null>(null);
  const columns: Column<WorkflowVariable>[] = [
    {
      id: 'name',
      header: t('workflows.variableName'),
      render: (variable) => (
        <Box component="code" sx={{ fontSize: 13 }}>
          {variable.name}
        </Box>
      ),
    },
    { id: 'title', header: t('workflows.variableTitle'), fill: true, render: (variable) => variable.title },
    {
      id: 'required',
      header: t('workflows.variableRequired'),
      hideBelow: 'sm',
      render: (variable) => (variable.required ? t('workflows.yes') : t('workflows.no')),
    },
    {
      id: 'default',
      header: t('workflows.defaultValue'),
      hideBelow: 'sm',
      render: (variable) => variable.default_value,
    },
  ];
  if (editable) {
    columns.push({
      id: 'actions',
      header: '',
      align: 'right',
      width: 104,
      render: (variable) => (
        <RowActions
          name={variable.name}
          onEdit={() => setEditing({ variable })}
          onDelete={() => onChange(variables.filter((current) => current !== variable))}
        />
      ),
    });
  }
  return (
    <Stack spacing={2}>
      {editable ? (
        <Box>
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setEditing({})}>
            {t('workflows.newVariable')}
          </Button>
        </Box>
      ) : null}
      <DataTable
        aria-label={t('workflows.tabs.variables')}
        columns={columns}
        query={{ data: variables, isPending: false, error: null }}
        getRowKey={(variable) => variable.name}
        emptyText={t('workflows.noVariables')}
        paginated={false}
      />
      {editing ? (
        <VariableDialog
          variable={editing.variable}
          onClose={() => setEditing(null)}
          onSave={(variable) => {
            const previous = editing.variable;
            onChange(
              previous
                ? variables.map((current) => (current === previous ? variable : current))
                : [...variables, variable],
            );
            setEditing(null);
          }}
        />
      ) : null}
    </Stack>
  );
}
