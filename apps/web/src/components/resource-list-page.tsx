import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import { DataTable } from './data-table.tsx';
import type { Column, RowExpansion, TableRows } from './data-table.tsx';
import { Page } from './page.tsx';
import { PageHeader } from './page-header.tsx';
import { RowActions } from './row-actions.tsx';

interface ResourceListPageProps<T extends { id: number }> {
  /** The page's list (useResourceList): its texts' section, rows, who may manage them and their delete flow. */
  list: {
    section: string;
    canManage: boolean;
    rows: TableRows<T>;
    deletion: RowDeletion<NoInfer<T>> & { element: ReactNode };
  };
  /** The header's create control: a label for a plain "new" button, or a whole control (a menu). */
  create: { label: string; onClick: () => void } | ReactNode;
  columns: readonly Column<T>[];
  /** The trailing edit/delete column, for those who may manage the rows: what edit opens, and more. */
  actions: RowActions<T>;
  expansion?: RowExpansion<T>;
  /** The page's dialogs. */
  children?: ReactNode;
}

function isButtonSpec(
  create: ResourceListPageProps<{ id: number }>['create'],
): create is { label: string; onClick: () => void } {
  return typeof create === 'object' && create !== null && 'label' in create && 'onClick' in create;
}

/**
 * A project resource's page: its title (`<section>.title`) with the create control, every row in one
 * table (`<section>.empty` when there is none) with the edit/delete column, and the delete dialogs.
 */
export function ResourceListPage<T extends { id: number }>({
  list,
  create,
  columns,
  actions,
  expansion,
  children,
}: ResourceListPageProps<T>) {
  const { t } = useTranslation();
  const title = t(`${list.section}.title`);
  const createControl = isButtonSpec(create) ? (
    <Button variant="contained" disableElevation startIcon={<AddIcon />} onClick={create.onClick}>
      {create.label}
    </Button>
  ) : (
    create
  );
  return (
    <Page>
      <PageHeader title={title} actions={list.canManage ? createControl : null} />
      <DataTable
        aria-label={title}
        columns={list.canManage ? [...columns, createActionsColumn({ deletion: list.deletion, ...actions })] : columns}
        query={list.rows}
        getRowKey={(row) => row.id}
        emptyText={t(`${list.section}.empty`)}
        paginated={false}
        expansion={expansion}
      />
      {children}
      {list.deletion.element}
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

interface ActionsColumnOptions<T> {
  deletion: RowDeletion<T>;
  onEdit: (row: T) => void;
  canEdit?: (row: T) => boolean;
  /** Buttons of the row shown before edit and delete. */
  extraActions?: (row: T) => ReactNode;
}

/** A resource page's row actions besides delete, which the page's list brings. */
export type RowActions<T> = Omit<ActionsColumnOptions<T>, 'deletion'>;

/** The trailing edit/delete column of a resource table. */
export function createActionsColumn<T>({
  deletion,
  onEdit,
  canEdit = () => true,
  extraActions,
}: ActionsColumnOptions<T>): Column<T> {
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
