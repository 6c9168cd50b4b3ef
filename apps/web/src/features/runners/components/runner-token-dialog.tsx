import { useTranslation } from 'react-i18next';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { RunnerWithToken } from '@gantry/contract';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { copyText } from '../../../lib/clipboard.ts';
import { buildRunnerCommands } from './runner-form.ts';

function CopyableLine({ label, text, copyLabel }: { label: string; text: string; copyLabel: string }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const copy = async () => {
    try {
      await copyText(text);
      snackbar.showSuccess(t('runners.copied'));
    } catch (error) {
      snackbar.showError(t('runners.copyFailed', { reason: getErrorMessage(error) }));
    }
  };
  return (
    <Box>
      <Typography variant="subtitle2" sx={{ mb: 0.75 }}>
        {label}
      </Typography>
      <Box
        sx={(theme) => ({
          display: 'flex',
          alignItems: 'flex-start',
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
          sx={{ fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace', fontSize: 13, py: 0.75, flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' }}
        >
          {text}
        </Typography>
        <Tooltip title={copyLabel}>
          <IconButton size="small" onClick={() => void copy()} aria-label={copyLabel}>
            <ContentCopyIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
    </Box>
  );
}

/** Shown once after a runner is created: its token and the command lines that start it. */
export function RunnerTokenDialog({ runner, serverUrl, onClose }: { runner: RunnerWithToken | undefined; serverUrl: string; onClose: () => void }) {
  const { t } = useTranslation();
  const commands = runner ? buildRunnerCommands(serverUrl, runner.token) : undefined;
  return (
    <Dialog
      open={runner !== undefined}
      // The token is shown only here: a stray click beside the dialog must not lose it.
      onClose={(_event, reason) => {
        if (reason !== 'backdropClick') onClose();
      }}
      fullWidth aria-labelledby="runner-token-title" slotProps={{ paper: { sx: { maxWidth: 600 } } }}>
      <DialogTitle id="runner-token-title">{t('runners.tokenTitle', { name: runner?.name ?? '' })}</DialogTitle>
      <DialogContent>
        {runner && commands ? (
          <Stack spacing={2}>
            <Alert severity="warning">{t('runners.tokenOnce')}</Alert>
            <CopyableLine label={t('runners.token')} text={runner.token} copyLabel={t('runners.copyToken')} />
            <CopyableLine label={t('runners.command')} text={commands.cli} copyLabel={t('runners.copyCommand')} />
            <CopyableLine label={t('runners.containerCommand')} text={commands.container} copyLabel={t('runners.copyContainerCommand')} />
          </Stack>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
