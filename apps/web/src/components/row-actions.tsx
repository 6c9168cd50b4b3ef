import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';

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
        <Tooltip title={t('common.edit')}>
          <IconButton size="small" onClick={onEdit} aria-label={t('lists.editNamed', { name })}>
            <EditOutlinedIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
      {onDelete ? (
        <Tooltip title={t('common.delete')}>
          <span>
            <IconButton
              size="small"
              onClick={onDelete}
              disabled={deleting}
              aria-label={t('lists.deleteNamed', { name })}
            >
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      ) : null}
    </Stack>
  );
}
