import type { ComponentType } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { DataTable } from '../../../components/data-table.tsx';
import type { Column, TableRows } from '../../../components/data-table.tsx';
import { createActionsColumn } from '../../../components/resource-list-page.tsx';
import type { ItemDialogProps } from '../../../components/resource-list-page.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { useItemDelete } from '../../../components/use-item-delete.ts';
import { partTextsOf } from './integration-parts.ts';
import type { IntegrationPart } from './integration-parts.ts';
import { SectionHeading } from './section-heading.tsx';

interface Part {
  id: number;
  name: string;
}

/** The dialog of one part of an integration: a new one, or the item to edit. */
export type PartDialogProps<T> = ItemDialogProps<T> & { integrationId: number };

interface PartsSectionProps<T extends Part> {
  /** Which of the integration's parts the section lists; its texts are the part's (partTextsOf). */
  part: IntegrationPart;
  projectId: number;
  integrationId: number;
  query: TableRows<T>;
  columns: readonly Column<T>[];
  /** Those who may manage the integration get the new button, and edit and delete on each row. */
  canManage: boolean;
  /** The DELETE of one part, by id. */
  remove: UseMutationResult<unknown, Error, number>;
  /** The part's dialog, for a new one or the row to edit. */
  Dialog: ComponentType<PartDialogProps<T>>;
}

/** A titled table of one kind of the integration's parts (extracted values, matchers). */
export function PartsSection<T extends Part>({
  part,
  projectId,
  integrationId,
  query,
  columns,
  canManage,
  remove,
  Dialog,
}: PartsSectionProps<T>) {
  const { t } = useTranslation();
  const dialog = useDialogState<T>();
  const texts = partTextsOf(part);
  const title = t(texts.title);
  const deletion = useItemDelete<Part>({ projectId, texts: texts.delete, remove });
  return (
    <Box component="section" aria-label={title}>
      <SectionHeading
        title={title}
        description={t(texts.hint)}
        alignAction="flex-end"
        action={
          canManage ? (
            <Button size="small" variant="outlined" startIcon={<AddIcon />} onClick={() => dialog.show()}>
              {t(texts.item.newTitle)}
            </Button>
          ) : null
        }
      />
      <DataTable
        aria-label={title}
        columns={canManage ? [...columns, createActionsColumn<T>({ deletion, onEdit: dialog.show })] : columns}
        query={query}
        getRowKey={(row) => row.id}
        emptyText={t(texts.empty)}
        paginated={false}
      />
      <Dialog
        open={dialog.open}
        projectId={projectId}
        integrationId={integrationId}
        item={dialog.item}
        onClose={dialog.close}
      />
      {deletion.element}
    </Box>
  );
}
