import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Repository } from '@gantry/contract';
import { getCheckIntervalLabel, listCheckIntervals } from '../../../lib/check-intervals.ts';
import { translateValidationMessage } from '../../../lib/i18n.ts';
import type { CronCheckFields, CronCheckTarget } from './template-cron-check.ts';

interface TemplateCronCheckSectionProps {
  target: CronCheckTarget;
  fields: CronCheckFields;
  onChange: (fields: CronCheckFields) => void;
  repositories: readonly Repository[];
  /** A validation message for the repository, or the server's verdict on the interval. */
  repositoryError?: string;
  cronError?: string;
}

/** "Run on new commit": the template's one commit-check schedule, edited with the template. */
export function TemplateCronCheckSection({
  target,
  fields,
  onChange,
  repositories,
  repositoryError,
  cronError,
}: TemplateCronCheckSectionProps) {
  const { t } = useTranslation();
  if (target.kind === 'untouched') {
    return (
      <Alert severity="info" variant="outlined">
        {target.reason === 'many'
          ? t('schedules.cronCheck.manyHint', { count: target.count })
          : t('schedules.cronCheck.plainHint')}
      </Alert>
    );
  }
  return (
    <Stack spacing={1.5}>
      <Typography variant="subtitle2">{t('schedules.cronCheck.title')}</Typography>
      <FormControlLabel
        label={t('schedules.cronCheck.enable')}
        control={
          <Checkbox
            checked={fields.enabled}
            onChange={(event) => onChange({ ...fields, enabled: event.target.checked })}
          />
        }
      />
      {fields.enabled ? (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            select
            fullWidth
            required
            label={t('schedules.cronCheck.repository')}
            value={fields.repository_id ?? ''}
            onChange={(event) =>
              onChange({ ...fields, repository_id: event.target.value === '' ? null : Number(event.target.value) })
            }
            error={repositoryError !== undefined}
            helperText={repositoryError ? translateValidationMessage(t, repositoryError) : undefined}
          >
            {repositories.map((repository) => (
              <MenuItem key={repository.id} value={repository.id}>
                {repository.git_branch ? `${repository.name} (${repository.git_branch})` : repository.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            fullWidth
            required
            label={t('schedules.cronCheck.interval')}
            value={fields.cron_format}
            onChange={(event) => onChange({ ...fields, cron_format: event.target.value })}
            error={cronError !== undefined}
            helperText={cronError}
          >
            {listCheckIntervals(fields.cron_format).map((interval) => (
              <MenuItem key={interval} value={interval}>
                {getCheckIntervalLabel(t, interval)}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      ) : null}
    </Stack>
  );
}
