import type { ReactNode } from 'react';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import { DataTable } from './data-table.tsx';
import type { Column, RowExpansion, TableRows } from './data-table.tsx';
import { Page } from './page.tsx';
import { PageHeader } from './page-header.tsx';
import { RowActions } from './row-actions.tsx';

interface ResourceListPageProps<T> {
  title: string;
  /** Shown only to those who may manage the resource. */
  canManage: boolean;
  /** The header's create control: a label for a plain "new" button, or a whole control (a menu). */
  create: { label: string; onClick: () => void } | ReactNode;
  query: TableRows<T>;
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
        query={query}
        getRowKey={getRowKey}
        emptyText={emptyText}
        paginated={false}
        expansion={expansion}
      />
      {children}
    </Page>
  );
}

/** What the actions column needs of a list's delete (`useItemDelete`). */
interface RowDeletion<T> {
  nameOf: (row: T) => string;
  request: (row: T) => void;
  /** The row's delete is under way (its button waits). */
  isDeleting: (row: T) => boolean;
}

/** The trailing edit/delete column of a resource table. */
export function createActionsColumn<T>({
  deletion,
  onEdit,
  canEdit = () => true,
  extraActions,
}: {
  deletion: RowDeletion<T>;
  onEdit: (row: T) => void;
  canEdit?: (row: T) => boolean;
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
        name={deletion.nameOf(row)}
        onEdit={canEdit(row) ? () => onEdit(row) : undefined}
        onDelete={() => deletion.request(row)}
        deleting={deletion.isDeleting(row)}
      >
        {extraActions?.(row)}
      </RowActions>
    ),
  };
}
