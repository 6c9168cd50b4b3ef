import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SecretRow } from './environment-form.ts';
import { AddRowButton } from '../../../components/list-row-buttons.tsx';
import { VERBATIM_INPUT } from '../../../lib/verbatim-input.ts';
import { DeleteIconButton } from '../../../components/delete-icon-button.tsx';

interface SecretsEditorProps {
  rows: readonly SecretRow[];
  onChange: (rows: SecretRow[]) => void;
  error?: string;
}

let nextKey = 0;

/** Secrets of a variable group: saved ones can get a new value or be removed; new ones need a name and a type. */
export function SecretsEditor({ rows, onChange, error }: SecretsEditorProps) {
  const { t } = useTranslation();
  const update = (key: string, change: Partial<SecretRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const remove = (row: SecretRow) =>
    onChange(
      row.id === undefined
        ? rows.filter((other) => other.key !== row.key)
        : rows.map((other) => (other.key === row.key ? { ...other, deleted: true } : other)),
    );
  const visible = rows.filter((row) => !row.deleted);

  return (
    <Stack spacing={1.5}>
      <Typography variant="body2" color="text.secondary">
        {t('environments.secretsHint')}
      </Typography>
      {error ? <Alert severity="error">{error}</Alert> : null}
      {visible.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
          {t('environments.noSecrets')}
        </Typography>
      ) : null}
      {visible.map((row) => {
        const saved = row.id !== undefined;
        return (
          <Stack
            key={row.key}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{ alignItems: { sm: 'center' } }}
            role="group"
            aria-label={row.name || t('environments.newSecret')}
          >
            {saved ? (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flex: 2, minWidth: 0 }}>
                <Typography
                  sx={{ fontFamily: 'monospace', fontSize: 14, overflow: 'hidden', textOverflow: 'ellipsis' }}
                >
                  {row.name}
                </Typography>
                <Chip
                  size="small"
                  variant="outlined"
                  label={t(`environments.secretTypes.${row.type}`)}
                  sx={{ height: 20, fontSize: 11 }}
                />
              </Stack>
            ) : (
              <Stack direction="row" spacing={1} sx={{ flex: 3, minWidth: 0 }}>
                <TextField
                  size="small"
                  value={row.name}
                  onChange={(event) => update(row.key, { name: event.target.value })}
                  placeholder={row.type === 'env' ? 'API_TOKEN' : 'api_token'}
                  error={Boolean(error) && row.name.trim() === ''}
                  slotProps={{ htmlInput: { 'aria-label': t('environments.secretName'), ...VERBATIM_INPUT } }}
                  sx={{ flex: 1, minWidth: 120, '& input': { fontFamily: 'monospace', fontSize: 13 } }}
                />
                <TextField
                  select
                  size="small"
                  value={row.type}
                  onChange={(event) => update(row.key, { type: event.target.value === 'env' ? 'env' : 'var' })}
                  slotProps={{ htmlInput: { 'aria-label': t('environments.secretType') } }}
                  sx={{ width: 230, flexShrink: 0 }}
                >
                  <MenuItem value="var">{t('environments.secretTypes.var')}</MenuItem>
                  <MenuItem value="env">{t('environments.secretTypes.env')}</MenuItem>
                </TextField>
              </Stack>
            )}
            <Stack direction="row" spacing={1} sx={{ flex: 3, alignItems: 'center' }}>
              <TextField
                size="small"
                type="password"
                autoComplete="new-password"
                value={row.value}
                onChange={(event) => update(row.key, { value: event.target.value })}
                placeholder={saved ? t('environments.secretUnchanged') : t('environments.secretValue')}
                slotProps={{
                  htmlInput: {
                    'aria-label': t('environments.secretValueOf', { name: row.name || t('environments.newSecret') }),
                  },
                }}
                sx={{ flex: 1 }}
              />
              <DeleteIconButton
                label={t('lists.deleteNamed', { name: row.name || t('environments.newSecret') })}
                onClick={() => remove(row)}
              />
            </Stack>
          </Stack>
        );
      })}
      <AddRowButton
        label={t('environments.addSecret')}
        onClick={() =>
          onChange([...rows, { key: `new-${(nextKey += 1)}`, name: '', type: 'var', value: '', deleted: false }])
        }
      />
    </Stack>
  );
}
