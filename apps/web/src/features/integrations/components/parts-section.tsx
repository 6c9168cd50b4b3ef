import type { UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { DataTable } from '../../../components/data-table.tsx';
import type { Column, TableRows } from '../../../components/data-table.tsx';
import { createActionsColumn } from '../../../components/resource-list-page.tsx';
import { useItemDelete } from '../../../components/use-item-delete.ts';
import { SectionHeading } from './section-heading.tsx';

interface Part {
  id: number;
  name: string;
}

interface PartsSectionProps<T extends Part> {
  /**
   * Which of the integration's parts the section lists. Its texts are in the integrations section:
   * `values`, `valuesHint`, `newValue`, `noValues`, `deleteValueTitle`, `deleteValueConfirm`, `valueDeleted`.
   */
  part: 'value' | 'matcher';
  projectId: number;
  query: TableRows<T>;
  columns: readonly Column<T>[];
  /** Those who may manage the integration get the new button, and edit and delete on each row. */
  canManage: boolean;
  /** Opens the part's dialog: a row to edit, or undefined for a new one. */
  onEdit: (row: T | undefined) => void;
  /** The DELETE of one part, by id. */
  remove: UseMutationResult<unknown, Error, number>;
}

/** A titled table of one kind of the integration's parts (extracted values, matchers). */
export function PartsSection<T extends Part>({
  part,
  projectId,
  query,
  columns,
  canManage,
  onEdit,
  remove,
}: PartsSectionProps<T>) {
  const { t } = useTranslation();
  const Part = part === 'value' ? 'Value' : 'Matcher';
  const title = t(`integrations.${part}s`);
  const deletion = useItemDelete<Part>({
    projectId,
    texts: {
      title: `integrations.delete${Part}Title`,
      confirm: `integrations.delete${Part}Confirm`,
      deleted: `integrations.${part}Deleted`,
    },
    remove,
  });
  return (
    <Box component="section" aria-label={title}>
      <SectionHeading
        title={title}
        description={t(`integrations.${part}sHint`)}
        alignAction="flex-end"
        action={
          canManage ? (
            <Button size="small" variant="outlined" startIcon={<AddIcon />} onClick={() => onEdit(undefined)}>
              {t(`integrations.new${Part}`)}
            </Button>
          ) : null
        }
      />
      <DataTable
        aria-label={title}
        columns={canManage ? [...columns, createActionsColumn<T>({ deletion, onEdit })] : columns}
        query={query}
        getRowKey={(row) => row.id}
        emptyText={t(`integrations.no${Part}s`)}
        paginated={false}
      />
      {deletion.element}
    </Box>
  );
}
