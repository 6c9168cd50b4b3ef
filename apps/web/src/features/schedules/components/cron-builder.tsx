import { Controller } from 'react-hook-form';
import type { UseFormSetValue } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { translateValidationMessage } from '../../../lib/i18n.ts';
import { FIELD_CHOICES, TIMINGS, TIMING_FIELDS } from '../cron-picker.ts';
import type { PickerField } from '../cron-picker.ts';
import { getFormCron, toPickerFields } from './schedule-form.ts';
import type { CronMode, ScheduleFormFields } from './schedule-form.ts';

/** Month and weekday names in the user's language; 2024-01-07 was a Sunday. */
function useChoiceLabel() {
  const { t, i18n } = useTranslation();
  // Menus spell names out; the closed field lists the short ones so several fit.
  return (field: PickerField, value: number, width: 'long' | 'short' = 'long'): string => {
    if (field === 'months')
      return new Intl.DateTimeFormat(i18n.language, { month: width, timeZone: 'UTC' }).format(
        Date.UTC(2024, value - 1, 1),
      );
    if (field === 'weekdays')
      return new Intl.DateTimeFormat(i18n.language, { weekday: width, timeZone: 'UTC' }).format(
        Date.UTC(2024, 0, 7 + value),
      );
    if (field === 'minutes') return `:${String(value).padStart(2, '0')}`;
    if (field === 'hours') return t('schedules.hourValue', { hour: String(value).padStart(2, '0') });
    return String(value);
  };
}

interface ChoiceFieldProps {
  field: PickerField;
}

/** One picker field: several values may be chosen; none means "every". */
function ChoiceField({ field }: ChoiceFieldProps) {
  const { t } = useTranslation();
  const labelOf = useChoiceLabel();
  return (
    <Controller
      name={`picker.${field}`}
      render={({ field: input }) => (
        <TextField
          select
          fullWidth
          label={t(`schedules.picker.${field}`)}
          value={input.value.map(String)}
          onChange={(event) => {
            const raw: unknown = event.target.value;
            const list = Array.isArray(raw) ? raw : String(raw).split(',');
            input.onChange(list.map(Number).sort((a, b) => a - b));
          }}
          slotProps={{
            select: {
              multiple: true,
              displayEmpty: true,
              renderValue: (selected) => {
                const values = (selected as string[]).map(Number);
                return values.length ? (
                  values.map((value) => labelOf(field, value, 'short')).join(', ')
                ) : (
                  <em>{t(`schedules.picker.every.${field}`)}</em>
                );
              },
              MenuProps: { slotProps: { paper: { sx: { maxHeight: 320 } } } },
            },
            inputLabel: { shrink: true },
          }}
        >
          {FIELD_CHOICES[field].map((value) => (
            <MenuItem key={value} value={String(value)} dense>
              {labelOf(field, value)}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

interface CronBuilderProps {
  setValue: UseFormSetValue<ScheduleFormFields>;
  /** The form's current values (watched by the dialog). */
  fields: ScheduleFormFields;
}

/** Raw cron text or the timing picker; switching carries the expression across both ways. */
export function CronBuilder({ setValue, fields }: CronBuilderProps) {
  const { t } = useTranslation();
  const { mode, picker } = fields;
  const timing = picker.timing;

  const switchMode = (next: CronMode | null) => {
    if (!next || next === mode) return;
    if (next === 'picker') setValue('picker', toPickerFields(fields.cron_format));
    else setValue('cron_format', getFormCron(fields) || fields.cron_format);
    setValue('mode', next);
  };

  return (
    <Stack spacing={2}>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={mode}
        onChange={(_, next: CronMode | null) => switchMode(next)}
        aria-label={t('schedules.cronMode')}
      >
        <ToggleButton value="picker">{t('schedules.modes.picker')}</ToggleButton>
        <ToggleButton value="raw">{t('schedules.modes.raw')}</ToggleButton>
      </ToggleButtonGroup>
      {mode === 'raw' ? (
        <FormTextField
          name="cron_format"
          label={t('schedules.cron')}
          required
          placeholder="* * * * *"
          helperText={t('schedules.cronHint')}
          verbatim
          slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
        />
      ) : (
        <>
          {timing === '' && fields.cron_format.trim() ? (
            <Alert severity="info" sx={{ py: 0 }}>
              {t('schedules.pickerCannotShow', { cron: fields.cron_format.trim() })}
            </Alert>
          ) : null}
          <Controller
            name="picker.timing"
            render={({ field, fieldState }) => (
              <ChoiceSelect
                fullWidth
                required
                label={t('schedules.timing')}
                value={field.value}
                choices={TIMINGS.map((value) => ({ value, label: t(`schedules.timings.${value}`) }))}
                onChange={field.onChange}
                error={fieldState.error !== undefined}
                helperText={
                  fieldState.error?.message ? translateValidationMessage(t, fieldState.error.message) : undefined
                }
              />
            )}
          />
          {timing ? (
            <>
              <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
                {TIMING_FIELDS[timing].map((field) => (
                  <ChoiceField key={field} field={field} />
                ))}
              </Box>
              <Typography variant="body2" color="text.secondary">
                {t('schedules.cron')}:{' '}
                <Box component="code" sx={{ color: 'text.primary' }} data-testid="picker-cron">
                  {getFormCron(fields)}
                </Box>
              </Typography>
            </>
          ) : null}
        </>
      )}
    </Stack>
  );
}
