import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import Stack from '@mui/material/Stack';
import { TooltipIconButton } from './tooltip-icon-button.tsx';
import { DeleteIconButton } from './delete-icon-button.tsx';

interface RowActionsProps {
  /** The row's name, for the buttons' accessible names ("Edit deploy key"). */
  name: string;
  onEdit?: () => void;
  onDelete?: () => void;
  deleting?: boolean;
  /** Extra buttons before edit and delete. */
  children?: ReactNode;
}

/** The edit and delete buttons at the end of a resource row. */
export function RowActions({ name, onEdit, onDelete, deleting = false, children }: RowActionsProps) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
      {children}
      {onEdit ? (
        <TooltipIconButton
          title={t('common.edit')}
          label={t('lists.editNamed', { name })}
          size="small"
          onClick={onEdit}
        >
          <EditOutlinedIcon fontSize="small" />
        </TooltipIconButton>
      ) : null}
      {onDelete ? (
        <DeleteIconButton label={t('lists.deleteNamed', { name })} onClick={onDelete} disabled={deleting} />
      ) : null}
    </Stack>
  );
}
