import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { SecretValue } from '../../../components/secret-value.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { useCreateApiToken } from '../api/account-queries.ts';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { CancelActions } from '../../../components/cancel-actions.tsx';

/** Lifetimes offered for a new token, in days; 0 = never expires. */
const TOKEN_LIFETIMES = [0, 7, 30, 90, 365] as const;

function expiryFor(days: number, now = new Date()): string | null {
  return days === 0 ? null : new Date(now.getTime() + days * 86_400_000).toISOString();
}

/** Creates a token, then shows it the one time the server ever returns it. */
export function NewTokenDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateApiToken();
  const [name, setName] = useState('');
  const [days, setDays] = useState<number>(90);

  useEffect(() => {
    if (!open) return;
    setName('');
    setDays(90);
    create.reset();
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim(), expires_at: expiryFor(days) });
  };
  const created = create.data;

  return (
    <Dialog
      open={open}
      // Once the token is shown (this one time only), a stray click beside the dialog must not lose it.
      onClose={(_event, reason) => {
        if (create.isPending || (created && reason === 'backdropClick')) return;
        onClose();
      }}
      maxWidth="xs"
      fullWidth
      aria-labelledby="new-token-title"
    >
      <DialogTitle id="new-token-title">
        {created ? t('account.tokens.createdTitle') : t('account.tokens.new')}
      </DialogTitle>
      {created ? (
        <>
          <DialogContent>
            <Stack spacing={2}>
              <Alert severity="warning">{t('account.tokens.shownOnce')}</Alert>
              <SecretValue value={created.id} label={t('account.tokens.token')} />
              <Typography variant="body2" color="text.secondary">
                {t('account.tokens.usage')}
              </Typography>
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button variant="contained" disableElevation onClick={onClose}>
              {t('account.tokens.done')}
            </Button>
          </DialogActions>
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          <DialogContent>
            <Stack spacing={2} sx={{ pt: 1 }}>
              {create.isError ? (
                <Alert severity="error" role="alert">
                  {getErrorMessage(create.error)}
                </Alert>
              ) : null}
              <TextField
                label={t('account.tokens.name')}
                value={name}
                onChange={(event) => setName(event.target.value)}
                helperText={t('account.tokens.nameHint')}
                slotProps={{ htmlInput: { maxLength: 255 } }}
                autoFocus
                fullWidth
              />
              <ChoiceSelect
                label={t('account.tokens.expiresIn')}
                value={days}
                choices={TOKEN_LIFETIMES.map((value) => ({
                  value,
                  label: value === 0 ? t('account.tokens.never') : t('account.tokens.days', { count: value }),
                }))}
                onChange={setDays}
                fullWidth
              />
            </Stack>
          </DialogContent>
          <CancelActions onCancel={onClose} disabled={create.isPending}>
            <SubmitButton pending={create.isPending}>{t('common.create')}</SubmitButton>
          </CancelActions>
        </form>
      )}
    </Dialog>
  );
}
