import TextField from '@mui/material/TextField';

interface PasscodeFieldProps {
  value: string;
  onChange: (value: string) => void;
  label: string;
  error?: string | null;
  autoFocus?: boolean;
}

/** The six digits of an authenticator app: numeric keyboard on phones, one-time-code autofill. */
export function PasscodeField({ value, onChange, label, error, autoFocus }: PasscodeFieldProps) {
  return (
    <TextField
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value.replace(/\D/g, '').slice(0, 6))}
      autoFocus={autoFocus}
      autoComplete="one-time-code"
      error={Boolean(error)}
      helperText={error ?? undefined}
      slotProps={{
        htmlInput: {
          inputMode: 'numeric',
          pattern: '[0-9]*',
          maxLength: 6,
          style: { letterSpacing: '0.3em', fontSize: 20 },
        },
      }}
      fullWidth
    />
  );
}
