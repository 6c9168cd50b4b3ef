import { useTranslation } from 'react-i18next';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { copyText } from '../lib/clipboard.ts';
import { getErrorMessage } from '../lib/api-client.ts';
import { useSnackbar } from './snackbar-provider.tsx';

interface SecretValueProps {
  value: string;
  /** Names the value for screen readers and the copy button ("API token", "Recovery code"). */
  label: string;
}

/** A value shown once (a new API token, a recovery code): monospace, selectable, with a copy button. */
export function SecretValue({ value, label }: SecretValueProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const copy = async () => {
    try {
      await copyText(value);
      snackbar.showSuccess(t('account.copied'));
    } catch (error) {
      snackbar.showError(t('account.copyFailed', { reason: getErrorMessage(error) }));
    }
  };
  return (
    <Box
      sx={(theme) => ({
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        pl: 1.5,
        pr: 0.5,
        py: 0.5,
        borderRadius: 1,
        bgcolor: theme.palette.mode === 'dark' ? 'grey.900' : 'grey.100',
        border: 1,
        borderColor: 'divider',
      })}
    >
      <Typography
        component="code"
        aria-label={label}
        data-testid="secret-value"
        sx={{ fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace', fontSize: 13, py: 0.75, flexGrow: 1, wordBreak: 'break-all', userSelect: 'all' }}
      >
        {value}
      </Typography>
      <Tooltip title={t('account.copy')}>
        <IconButton size="small" onClick={() => void copy()} aria-label={t('account.copyNamed', { name: label })}>
          <ContentCopyIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}
