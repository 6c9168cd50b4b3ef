import { useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { LoginBody } from '@gantry/contract';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { translateValidationMessage } from '../../../lib/i18n.ts';
import { SignInField } from './sign-in-field.tsx';

type Field = keyof LoginBody;
type FieldErrors = Partial<Record<Field, string>>;

const FIELDS: readonly Field[] = ['auth', 'password'];

/** The contract's rules for a sign-in: the body to send, or the first message of each field that breaks them. */
function validate(values: LoginBody): { body?: LoginBody; errors: FieldErrors } {
  const parsed = LoginBody.safeParse(values);
  if (parsed.success) return { body: parsed.data, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = FIELDS.find((name) => name === issue.path[0]);
    if (field && errors[field] === undefined) errors[field] = issue.message;
  }
  return { errors };
}

interface SignInFormProps {
  pending: boolean;
  /** Why the last attempt failed, as the page words it. */
  error: string | null;
  onSubmit: (body: LoginBody) => void;
}

/**
 * Username and password, checked by the contract's LoginBody before anything is sent. Like the
 * app's other forms, it checks on submit and, once submitted, again at every change. Two fields do
 * not need a form library: the sign-in page is the first page everyone loads, so it stays light.
 */
export function SignInForm({ pending, error, onSubmit }: SignInFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<LoginBody>({ auth: '', password: '' });
  const [submitted, setSubmitted] = useState(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  // Messages follow the values once a submit was tried: nothing to keep in step by hand.
  const errors: FieldErrors = submitted ? validate(values).errors : {};

  const change = (field: Field) => (value: string) => setValues((current) => ({ ...current, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const result = validate(values);
    if (result.body) onSubmit(result.body);
    else inputs.current[FIELDS.find((field) => result.errors[field] !== undefined) ?? 'auth']?.focus();
  };
  const messageOf = (field: Field) => {
    const message = errors[field];
    return message === undefined ? undefined : translateValidationMessage(t, message);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('auth.signIn')}>
      <Stack spacing={2}>
        {error ? (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        ) : null}
        <SignInField
          name="auth"
          label={t('auth.username')}
          value={values.auth}
          onChange={change('auth')}
          error={messageOf('auth')}
          inputRef={(input) => void (inputs.current.auth = input)}
          autoComplete="username"
          autoFocus
        />
        <SignInField
          name="password"
          label={t('auth.password')}
          type="password"
          value={values.password}
          onChange={change('password')}
          error={messageOf('password')}
          inputRef={(input) => void (inputs.current.password = input)}
          autoComplete="current-password"
        />
        <SubmitButton pending={pending} size="large">
          {t('auth.signIn')}
        </SubmitButton>
      </Stack>
    </form>
  );
}
