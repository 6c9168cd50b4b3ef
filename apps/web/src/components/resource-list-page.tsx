import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import { DataTable } from './data-table.tsx';
import type { Column, RowExpansion } from './data-table.tsx';
import { Page } from './page.tsx';
import { PageHeader } from './page-header.tsx';
import { RowActions } from './row-actions.tsx';

interface ResourceListPageProps<T> {
  title: string;
  /** Shown only to those who may manage the resource. */
  canManage: boolean;
  /** The header's create control: a label for a plain "new" button, or a whole control (a menu). */
  create: { label: string; onClick: () => void } | ReactNode;
  query: Pick<UseQueryResult<readonly T[]>, 'data' | 'isPending' | 'error'>;
  columns: readonly Column<T>[];
  getRowKey: (row: T) => number;
  emptyText: string;
  expansion?: RowExpansion<T>;
  /** The page's dialogs. */
  children?: ReactNode;
}

function isButtonSpec(
  create: ResourceListPageProps<unknown>['create'],
): create is { label: string; onClick: () => void } {
  return typeof create === 'object' && create !== null && 'label' in create && 'onClick' in create;
}

/** A project resource's page: its title with the create control, and every row in one table. */
export function ResourceListPage<T>({
  title,
  canManage,
  create,
  query,
  columns,
  getRowKey,
  emptyText,
  expansion,
  children,
}: ResourceListPageProps<T>) {
  const createControl = isButtonSpec(create) ? (
    <Button variant="contained" disableElevation startIcon={<AddIcon />} onClick={create.onClick}>
      {create.label}
    </Button>
  ) : (
    create
  );
  return (
    <Page>
      <PageHeader title={title} actions={canManage ? createControl : null} />
      <DataTable
        aria-label={title}
        columns={columns}
        rows={query.data}
        getRowKey={getRowKey}
        loading={query.isPending}
        error={query.error}
        emptyText={emptyText}
        paginated={false}
        expansion={expansion}
      />
      {children}
    </Page>
  );
}

/** The trailing edit/delete column of a resource table. */
export function createActionsColumn<T>({
  nameOf,
  onEdit,
  canEdit = () => true,
  onDelete,
  isDeleting,
  extraActions,
}: {
  nameOf: (row: T) => string;
  onEdit: (row: T) => void;
  canEdit?: (row: T) => boolean;
  onDelete: (row: T) => void;
  /** The row's delete is under way (its button waits); rows whose delete runs in a dialog leave it out. */
  isDeleting?: (row: T) => boolean;
  /** Buttons of the row shown before edit and delete. */
  extraActions?: (row: T) => ReactNode;
}): Column<T> {
  return {
    id: 'actions',
    header: '',
    align: 'right',
    width: 104,
    render: (row) => (
      <RowActions
        name={nameOf(row)}
        onEdit={canEdit(row) ? () => onEdit(row) : undefined}
        onDelete={() => onDelete(row)}
        deleting={isDeleting?.(row) ?? false}
      >
        {extraActions?.(row)}
      </RowActions>
    ),
  };
}
