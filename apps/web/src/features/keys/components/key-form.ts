import type { z } from 'zod';
import { KeyBody, requiredText } from '@gantry/contract';
import type { AccessKey } from '@gantry/contract';

/**
 * The key form: the contract's body plus the rules that hold only while the secret is being set
 * (a new key, or "override" ticked on an existing one).
 */
export function buildKeyFormSchema(secretsEditable: boolean) {
  return KeyBody.superRefine((key, ctx) => {
    if (!secretsEditable) return;
    if (key.type === 'ssh' && !key.ssh?.private_key?.trim()) {
      ctx.addIssue({ code: 'custom', path: ['ssh', 'private_key'], message: requiredText('Private key') });
    }
    if (key.type === 'login_password' && !key.login_password?.password) {
      ctx.addIssue({ code: 'custom', path: ['login_password', 'password'], message: requiredText('Password') });
    }
    if (key.type === 'string' && !key.string) {
      ctx.addIssue({ code: 'custom', path: ['string'], message: requiredText('Value') });
    }
  });
}
export type KeyFormInput = z.input<ReturnType<typeof buildKeyFormSchema>>;
export type KeyFormValues = z.output<ReturnType<typeof buildKeyFormSchema>>;

export function getKeyFormDefaults(key?: AccessKey): KeyFormInput {
  return {
    name: key?.name ?? '',
    // A new key starts without a type: the user picks one.
    type: key?.type ?? ('' as KeyFormInput['type']),
    ssh: { login: '', passphrase: '', private_key: '' },
    login_password: { login: '', password: '' },
    string: '',
    override_secret: false,
  };
}

/** The body to send: the secret part only when it is being set, and only the part of the chosen type. */
export function toKeyBody(values: KeyFormValues, existing?: AccessKey): KeyBody {
  const secretsEditable = !existing || values.override_secret === true;
  const base = { name: values.name, type: secretsEditable ? values.type : (existing?.type ?? values.type) };
  if (!secretsEditable) return { ...base, id: existing?.id, override_secret: false };
  return {
    ...base,
    ...(existing ? { id: existing.id, override_secret: true } : {}),
    ssh: values.type === 'ssh' ? values.ssh : undefined,
    login_password: values.type === 'login_password' ? values.login_password : undefined,
    string: values.type === 'string' ? values.string : undefined,
  };
}
