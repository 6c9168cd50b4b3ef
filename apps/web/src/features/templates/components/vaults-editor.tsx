import { Controller, useFieldArray, useFormContext } from 'react-hook-form';
import type { FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AccessKey, TemplateInput } from '@gantry/contract';
import { isPasswordKeyType } from '@gantry/contract';
import { AddRowButton } from '../../../components/list-row-buttons.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField, namedOptions } from '../../../components/form-select-field.tsx';
import { getListErrorMessage } from '../../../lib/form-errors.ts';
import { translateValidationMessage } from '../../../lib/i18n.ts';
import type { TemplateFormFields } from './template-form.ts';

interface VaultsEditorProps {
  errors: FieldErrors<TemplateFormFields>['vaults'];
  /** Keys of the project; password vaults use login_password keys or single-value (string) keys. */
  keys: readonly AccessKey[];
}

/** The password key or the script of a vault: its own line, as wide as name and type together. */
const VAULT_SECRET_CELL = { gridColumn: { xs: 1, sm: '1 / 3' }, gridRow: { xs: 3, sm: 2 } } as const;

/** Ansible vaults of a template: each a password (from a key) or a client script; one may go without a name. */
export function VaultsEditor({ errors, keys }: VaultsEditorProps) {
  const { control } = useFormContext<TemplateFormFields, unknown, TemplateInput>();
  const { t } = useTranslation();
  const vaults = useFieldArray({ control, name: 'vaults' });
  const passwordKeys = keys.filter((key) => isPasswordKeyType(key.type));
  const listMessage = getListErrorMessage(errors);

  return (
    <Box component="section" aria-labelledby="vaults-label">
      <Typography id="vaults-label" variant="subtitle2" color={listMessage ? 'error' : undefined}>
        {t('templates.form.vaults')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('templates.vaults.hint')}
      </Typography>
      <Stack spacing={1.5} sx={{ mt: 1 }}>
        {vaults.fields.map((field, index) => (
          <Paper
            key={field.id}
            variant="outlined"
            sx={{ p: 1.5 }}
            role="group"
            aria-label={t('templates.vaults.vaultN', { n: index + 1 })}
          >
            {/* Name, type and remove on one line, the key or script below at full width: four fields side by side were too narrow to read. */}
            <Box
              sx={{
                display: 'grid',
                gap: 1.5,
                alignItems: 'start',
                gridTemplateColumns: { xs: 'minmax(0, 1fr) auto', sm: 'minmax(0, 1fr) 160px auto' },
              }}
            >
              <FormTextField
                name={`vaults.${index}.name`}
                size="small"
                label={t('templates.vaults.name')}
                placeholder={t('templates.vaults.default')}
                helperText={t('templates.vaults.nameHint')}
                verbatim
                slotProps={{ inputLabel: { shrink: true } }}
                sx={{ gridColumn: 1, gridRow: 1 }}
              />
              <FormSelectField
                name={`vaults.${index}.type`}
                size="small"
                label={t('templates.vaults.type')}
                options={[
                  { value: 'password', label: t('templates.vaults.types.password') },
                  { value: 'script', label: t('templates.vaults.types.script') },
                ]}
                sx={{ gridColumn: { xs: 1, sm: 2 }, gridRow: { xs: 2, sm: 1 } }}
              />
              <Controller
                name={`vaults.${index}.type`}
                render={({ field: typeField }) =>
                  typeField.value === 'password' ? (
                    <FormSelectField
                      name={`vaults.${index}.vault_key_id`}
                      size="small"
                      label={t('templates.vaults.password')}
                      helperText={passwordKeys.length ? undefined : t('templates.vaults.noPasswordKeys')}
                      options={namedOptions(passwordKeys)}
                      sx={VAULT_SECRET_CELL}
                    />
                  ) : (
                    <FormTextField
                      name={`vaults.${index}.script`}
                      size="small"
                      label={t('templates.vaults.script')}
                      placeholder="scripts/vault-client.py"
                      helperText={t('templates.vaults.scriptHint')}
                      verbatim
                      sx={VAULT_SECRET_CELL}
                    />
                  )
                }
              />
              <IconButton
                onClick={() => vaults.remove(index)}
                aria-label={t('templates.vaults.remove', { n: index + 1 })}
                sx={{ gridColumn: { xs: 2, sm: 3 }, gridRow: 1 }}
              >
                <DeleteOutlineIcon fontSize="small" />
              </IconButton>
            </Box>
          </Paper>
        ))}
      </Stack>
      {listMessage ? <FormHelperText error>{translateValidationMessage(t, listMessage)}</FormHelperText> : null}
      <AddRowButton
        label={t('templates.vaults.add')}
        onClick={() => vaults.append({ name: '', type: 'password', vault_key_id: null, script: '' })}
        sx={{ mt: 1 }}
      />
    </Box>
  );
}
