import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { RunnerWithToken } from '@gantry/contract';
import { SecretValue } from '../../../components/secret-value.tsx';
import { buildRunnerCommands } from './runner-form.ts';

/** Shown once after a runner is created: its token and the command lines that start it. */
export function RunnerTokenDialog({
  runner,
  serverUrl,
  onClose,
}: {
  runner: RunnerWithToken | undefined;
  serverUrl: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const commands = runner ? buildRunnerCommands(serverUrl, runner.token) : undefined;
  const commandMessages = {
    copiedMessage: t('runners.copied'),
    copyFailedMessage: (reason: string) => t('runners.copyFailed', { reason }),
  };
  return (
    <Dialog
      open={runner !== undefined}
      // The token is shown only here: a stray click beside the dialog must not lose it.
      onClose={(_event, reason) => {
        if (reason !== 'backdropClick') onClose();
      }}
      fullWidth
      aria-labelledby="runner-token-title"
      slotProps={{ paper: { sx: { maxWidth: 600 } } }}
    >
      <DialogTitle id="runner-token-title">{t('runners.tokenTitle', { name: runner?.name ?? '' })}</DialogTitle>
      <DialogContent>
        {runner && commands ? (
          <Stack spacing={2}>
            <Alert severity="warning">{t('runners.tokenOnce')}</Alert>
            {[
              { label: t('runners.token'), value: runner.token, copyLabel: t('runners.copyToken') },
              {
                label: t('runners.command'),
                value: commands.cli,
                copyLabel: t('runners.copyCommand'),
                ...commandMessages,
              },
              {
                label: t('runners.containerCommand'),
                value: commands.container,
                copyLabel: t('runners.copyContainerCommand'),
                ...commandMessages,
              },
            ].map(({ label, ...value }) => (
              <Box key={label}>
                <Typography variant="subtitle2" sx={{ mb: 0.75 }}>
                  {label}
                </Typography>
                <SecretValue label={label} {...value} />
              </Box>
            ))}
          </Stack>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
