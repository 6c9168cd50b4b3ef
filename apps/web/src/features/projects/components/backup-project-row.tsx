import { useTranslation } from 'react-i18next';
import DownloadIcon from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { SettingRow } from '../../../components/setting-row.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useDownloadBackup } from '../api/backup-queries.ts';

/** The settings row that downloads the project as a backup file, with a progress bar while it runs. */
export function BackupProjectRow({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const download = useDownloadBackup(projectId);

  return (
    <Box>
      <SettingRow
        title={t('backup.title')}
        hint={t('backup.hint')}
        button={{
          label: t('backup.button'),
          icon: <DownloadIcon />,
          disabled: download.isPending,
          onClick: () =>
            download.mutate(undefined, {
              onSuccess: () => snackbar.showSuccess(t('backup.exported')),
              onError: snackbar.showFailure,
            }),
        }}
      />
      {download.isPending ? <LinearProgress sx={{ mt: 2 }} aria-label={t('backup.inProgress')} /> : null}
    </Box>
  );
}
