import Alert from '@mui/material/Alert';

/** Why the form's last save failed, in red above its fields and announced; nothing while there is no failure. */
export function FormError({ error }: { error?: string | null }) {
  return error ? (
    <Alert severity="error" role="alert">
      {error}
    </Alert>
  ) : null;
}
