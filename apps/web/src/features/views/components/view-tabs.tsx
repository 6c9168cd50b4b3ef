import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { viewsQuery } from '../../../lib/project-resources.ts';
import { storage } from '../../../lib/storage.ts';
import { EditViewsDialog } from './edit-views-dialog.tsx';
import { paths } from '../../../lib/paths.ts';

interface ViewTabsProps {
  projectId: number;
  /** The open view; undefined for "All". */
  viewId: number | undefined;
  /** Whether the pencil that edits the views is shown. */
  canEdit: boolean;
}

/** "All" plus one tab per view; choosing a tab remembers it as the project's last visited view. */
export function ViewTabs({ projectId, viewId, canEdit }: ViewTabsProps) {
  const { t } = useTranslation();
  const views = useQuery(viewsQuery(projectId));
  const editDialog = useDialogState();
  const known = views.data?.some((view) => view.id === viewId) ?? false;

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', borderBottom: 1, borderColor: 'divider', mt: 1 }}>
      <Tabs
        value={viewId !== undefined && known ? viewId : viewId === undefined ? 0 : false}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        sx={{ flexGrow: 1, minWidth: 0 }}
        aria-label={t('views.tabsLabel')}
      >
        <Tab
          value={0}
          label={t('views.all')}
          component={RouterLink}
          to={paths.templates(projectId)}
          onClick={() => storage.setLastViewId(projectId, null)}
        />
        {(views.data ?? []).map((view) => (
          <Tab
            key={view.id}
            value={view.id}
            label={view.title}
            component={RouterLink}
            to={paths.templates(projectId, view.id)}
            onClick={() => storage.setLastViewId(projectId, view.id)}
          />
        ))}
      </Tabs>
      {canEdit ? (
        <Tooltip title={t('views.edit')}>
          <IconButton onClick={() => editDialog.show()} aria-label={t('views.edit')} size="small" sx={{ ml: 1 }}>
            <EditOutlinedIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
      <EditViewsDialog
        open={editDialog.open}
        projectId={projectId}
        views={views.data ?? []}
        onClose={editDialog.close}
      />
    </Box>
  );
}
