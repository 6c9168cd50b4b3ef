import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column, RowExpansion, TableRows } from './data-table.tsx';
import { NewButton } from './new-button.tsx';
import { RowActions } from './row-actions.tsx';
import { TablePage } from './table-page.tsx';

/** What a list page's edit dialog is given: the row it edits, none for a new one. */
export interface ItemDialogProps<T> {
  open: boolean;
  projectId: number;
  item?: T;
  onClose: () => void;
}

interface ResourceListPageProps<T extends { id: number }> {
  /** The page's list (useResourceList): its texts' section, rows, who may manage them, edit dialog and delete flow. */
  list: {
    section: string;
    texts: { newTitle: string };
    projectId: number;
    canManage: boolean;
    rows: TableRows<T>;
    editDialog: { open: boolean; item?: NoInfer<T>; show: (row?: NoInfer<T>) => void; close: () => void };
    deletion: RowDeletion<NoInfer<T>> & { element: ReactNode };
  };
  /**
   * The header's create control, for those who may manage the rows: the kind's new button (labelled
   * with its dialog's new title) unless the page has its own control (a menu).
   */
  create?: ReactNode;
  /** What the new button does; it opens the edit dialog on a new row unless told otherwise. */
  onCreate?: () => void;
  columns: readonly Column<T>[];
  /** The trailing edit/delete column, for those who may manage the rows: edit opens the edit dialog unless told otherwise. */
  actions?: Partial<RowActions<T>>;
  /** The dialog that creates and edits rows, opened by the create button and the rows' edit. */
  dialog?: ComponentType<ItemDialogProps<T>>;
  expansion?: RowExpansion<T>;
  /** The page's other dialogs. */
  children?: ReactNode;
}

/**
 * A project resource's page: its title (`<section>.title`) with the create control, every row in one
 * table (`<section>.empty` when there is none) with the edit/delete column, and the delete dialogs.
 */
export function ResourceListPage<T extends { id: number }>({
  list,
  create,
  onCreate,
  columns,
  actions,
  dialog: ItemDialog,
  expansion,
  children,
}: ResourceListPageProps<T>) {
  const { t } = useTranslation();
  const { editDialog } = list;
  const createControl = create ?? (
    <NewButton label={t(list.texts.newTitle)} onClick={onCreate ?? (() => editDialog.show(undefined))} />
  );
  return (
    <TablePage
      section={list.section}
      actions={list.canManage ? createControl : null}
      columns={
        list.canManage
          ? [...columns, createActionsColumn({ deletion: list.deletion, onEdit: editDialog.show, ...actions })]
          : columns
      }
      query={list.rows}
      getRowKey={(row) => row.id}
      paginated={false}
      expansion={expansion}
    >
      {ItemDialog ? (
        <ItemDialog
          open={editDialog.open}
          projectId={list.projectId}
          item={editDialog.item}
          onClose={editDialog.close}
        />
      ) : null}
      {children}
      {list.deletion.element}
    </TablePage>
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
  canDelete?: (row: T) => boolean;
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
  canDelete = () => true,
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
        onDelete={canDelete(row) ? () => deletion.request(row) : undefined}
        deleting={deletion.isDeleting(row)}
      >
        {extraActions?.(row)}
      </RowActions>
    ),
  };
}
