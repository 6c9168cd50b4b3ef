import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { SecretValue } from '../../../components/secret-value.tsx';

const PASSWORD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random example password of letters and digits, drawn without modulo bias. */
export function makeExamplePassword(length = 10): string {
  const limit = 256 - (256 % PASSWORD_ALPHABET.length);
  let password = '';
  while (password.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && password.length < length) password += PASSWORD_ALPHABET[byte % PASSWORD_ALPHABET.length];
    }
  }
  return password;
}

export function buildHelpCommands(password: string) {
  return [
    { key: 'listUsers', command: 'gantry user list' },
    { key: 'changePassword', command: `gantry user change-by-login --login john --password ${password}` },
    {
      key: 'addAdmin',
      command: `gantry user add --admin --login john --name "John Doe" --email john@example.com --password ${password}`,
    },
  ] as const;
}

export function LoginHelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [password] = useState(makeExamplePassword);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="login-help-title">
      <DialogTitle id="login-help-title">{t('auth.help.title')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('auth.help.intro')}
        </Typography>
        <Stack spacing={2}>
          {buildHelpCommands(password).map(({ key, command }) => (
            <Box key={key}>
              <Typography variant="subtitle2" sx={{ mb: 0.75 }}>
                {t(`auth.help.${key}`)}
              </Typography>
              <SecretValue
                value={command}
                label={t(`auth.help.${key}`)}
                copyLabel={t('auth.help.copy')}
                copiedMessage={t('auth.help.copied')}
                copyFailedMessage={(reason) => t('auth.help.copyFailed', { reason })}
              />
            </Box>
          ))}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
