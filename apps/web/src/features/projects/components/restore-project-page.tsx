import { useRef, useState } from 'react';
import { Controller, FormProvider, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { requiredString } from '@gantry/contract';
import { FormError } from '../../../components/form-error.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { storage } from '../../../lib/storage.ts';
import { readBackupFile, useRestoreProject, type RestoreOutcome } from '../api/backup-queries.ts';
import { RestoreResultDialog } from './restore-result-dialog.tsx';

const FILE_REQUIRED = 'backup.restore.fileRequired';

const RestoreFormSchema = z.object({
  name: requiredString('Name'),
  file: z
    .instanceof(File, { message: FILE_REQUIRED })
    .nullable()
    .refine((file) => file !== null, FILE_REQUIRED),
});
type RestoreFormInput = z.input<typeof RestoreFormSchema>;
type RestoreFormValues = z.output<typeof RestoreFormSchema>;

/** Restores a project from a Gantry or Semaphore backup file under the name typed here. */
export function RestoreProjectPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const restore = useRestoreProject();
  const [fileError, setFileError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<RestoreOutcome | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const form = useForm<RestoreFormInput, unknown, RestoreFormValues>({
    resolver: zodResolver(RestoreFormSchema),
    defaultValues: { name: '', file: null },
  });

  const submit = async ({ name, file }: RestoreFormValues) => {
    setFileError(null);
    const backup = file ? await readBackupFile(file) : undefined;
    if (!backup) {
      setFileError(t('backup.restore.invalidFile'));
      return;
    }
    restore.mutate(
      { backup, name },
      {
        onSuccess: (result) => {
          storage.setLastProjectId(result.projectId);
          setOutcome(result);
        },
      },
    );
  };

  const error = fileError ?? (restore.error ? getErrorMessage(restore.error) : null);

  return (
    <Page>
      <PageHeader title={t('projects.restore.title')} />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <FormProvider {...form}>
          <form onSubmit={form.handleSubmit(submit)} noValidate aria-label={t('projects.restore.title')}>
            <Stack spacing={2.5} sx={{ maxWidth: 480 }}>
              <Typography variant="body2" color="text.secondary">
                {t('backup.restore.hint')}
              </Typography>
              <FormError error={error} />
              <FormTextField name="name" label={t('backup.restore.name')} required />
              <Controller
                name="file"
                render={({ field, fieldState }) => (
                  <div>
                    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                      {/* A real button opens the picker, so the keyboard reaches it (a label around a hidden input is not focusable). */}
                      <Button
                        variant="outlined"
                        startIcon={<UploadFileIcon />}
                        sx={{ flexShrink: 0 }}
                        onClick={() => fileInput.current?.click()}
                      >
                        {t('backup.restore.chooseFile')}
                      </Button>
                      <input
                        ref={fileInput}
                        hidden
                        type="file"
                        accept="application/json,.json"
                        aria-label={t('backup.restore.file')}
                        onChange={(event) => {
                          setFileError(null);
                          field.onChange(event.target.files?.[0] ?? null);
                        }}
                      />
                      <Typography
                        variant="body2"
                        color={field.value ? 'text.primary' : 'text.secondary'}
                        noWrap
                        sx={{ minWidth: 0 }}
                      >
                        {field.value instanceof File ? field.value.name : t('backup.restore.noFile')}
                      </Typography>
                    </Stack>
                    {fieldState.error ? <FormHelperText error>{t(FILE_REQUIRED)}</FormHelperText> : null}
                  </div>
                )}
              />
              <div>
                <SubmitButton pending={restore.isPending}>{t('backup.restore.submit')}</SubmitButton>
              </div>
            </Stack>
          </form>
        </FormProvider>
      </Paper>
      <RestoreResultDialog
        outcome={outcome}
        onClose={(target) => {
          const projectId = outcome?.projectId;
          setOutcome(null);
          if (projectId) void navigate(`/project/${projectId}/${target}`);
        }}
      />
    </Page>
  );
}
