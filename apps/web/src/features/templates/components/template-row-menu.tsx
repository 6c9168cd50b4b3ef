import { useTranslation } from 'react-i18next';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import { IconMenuItem } from '../../../components/icon-menu-item.tsx';
import { useMenuAnchor } from '../../../components/use-menu-anchor.ts';

interface TemplateRowMenuProps {
  name: string;
  editPath: string;
  onCopy: () => void;
  onDelete: () => void;
  busy: boolean;
}

/** Edit, copy and delete of a template row, behind one button so the row stays narrow. */
export function TemplateRowMenu({ name, editPath, onCopy, onDelete, busy }: TemplateRowMenuProps) {
  const { t } = useTranslation();
  const menu = useMenuAnchor();
  return (
    <>
      <IconButton
        size="small"
        onClick={menu.openAt}
        aria-label={t('templates.moreActions', { name })}
        aria-haspopup="menu"
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu
        {...menu.menuProps}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <IconMenuItem
          icon={<EditOutlinedIcon fontSize="small" />}
          label={t('common.edit')}
          to={editPath}
          onClick={menu.close}
        />
        <IconMenuItem
          icon={<ContentCopyIcon fontSize="small" />}
          label={t('templates.copy')}
          disabled={busy}
          onClick={menu.closeThen(onCopy)}
        />
        <IconMenuItem
          icon={<DeleteOutlineIcon fontSize="small" />}
          label={t('common.delete')}
          disabled={busy}
          danger
          onClick={menu.closeThen(onDelete)}
        />
      </Menu>
    </>
  );
}
