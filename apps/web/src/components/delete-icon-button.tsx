import { useTranslation } from 'react-i18next';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import type { Column } from './data-table.tsx';
import { TooltipIconButton } from './tooltip-icon-button.tsx';
import type { TooltipIconButtonProps } from './tooltip-icon-button.tsx';

type DeleteIconButtonProps = Omit<TooltipIconButtonProps, 'title' | 'size' | 'children'> & {
  /** What the tooltip says; "Delete" unless told otherwise. */
  title?: string;
};

/** The small bin button of a row (delete, remove, revoke), named after what it removes. */
export function DeleteIconButton({ title, ...props }: DeleteIconButtonProps) {
  const { t } = useTranslation();
  return (
    <TooltipIconButton {...props} title={title ?? t('common.delete')} size="small">
      <DeleteOutlineIcon fontSize="small" />
    </TooltipIconButton>
  );
}

interface DeleteColumnOptions<T> {
  width: number;
  /** What the buttons' tooltip says. */
  title: string;
  /** A row's button's accessible name, naming the row. */
  labelOf: (row: T) => string;
  onDelete: (row: T) => void;
}

/** A table's trailing column whose only action is the row's delete button (remove a member, revoke a token). */
export function deleteColumn<T>({ width, title, labelOf, onDelete }: DeleteColumnOptions<T>): Column<T> {
  return {
    id: 'actions',
    header: '',
    align: 'right',
    width,
    render: (row) => <DeleteIconButton title={title} label={labelOf(row)} onClick={() => onDelete(row)} />,
  };
}
