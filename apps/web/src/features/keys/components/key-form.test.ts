import { describe, expect, it } from 'vitest';
import { ACCESS_KEY_CONSTANT_FIELDS, type AccessKey } from '@gantry/contract';
import { buildKeyFormSchema, getKeyFormDefaults, toKeyBody } from './key-form.ts';

const existing: AccessKey = {
  id: 3,
  project_id: 1,
  name: 'deploy',
  type: 'ssh',
  empty: false,
  ...ACCESS_KEY_CONSTANT_FIELDS,
};

const messages = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('key form', () => {
  it('asks a new key for name, type and the secret of its type', () => {
    expect(messages(buildKeyFormSchema(true).safeParse(getKeyFormDefaults()))).toEqual([
      'Name is required',
      'Type is required',
    ]);
    const ssh = { ...getKeyFormDefaults(), name: 'k', type: 'ssh' as const };
    expect(messages(buildKeyFormSchema(true).safeParse(ssh))).toEqual(['Private key is required']);
    const login = { ...getKeyFormDefaults(), name: 'k', type: 'login_password' as const };
    expect(messages(buildKeyFormSchema(true).safeParse(login))).toEqual(['Password is required']);
    expect(buildKeyFormSchema(true).safeParse({ ...getKeyFormDefaults(), name: 'k', type: 'none' }).success).toBe(true);
  });

  it('does not ask for secrets while they are not being replaced', () => {
    expect(buildKeyFormSchema(false).safeParse(getKeyFormDefaults(existing)).success).toBe(true);
  });

  it('sends only the secret of the chosen type for a new key', () => {
    const values = buildKeyFormSchema(true).parse({
      ...getKeyFormDefaults(),
      name: 'db',
      type: 'login_password',
      ssh: { login: 'x', passphrase: '', private_key: 'stale' },
      login_password: { login: 'root', password: 'pw' },
    });
    expect(toKeyBody(values)).toEqual({
      name: 'db',
      type: 'login_password',
      ssh: undefined,
      login_password: { login: 'root', password: 'pw' },
    });
  });

  it('keeps the secret of an existing key unless override is ticked', () => {
    const untouched = buildKeyFormSchema(false).parse({ ...getKeyFormDefaults(existing), name: 'renamed' });
    expect(toKeyBody(untouched, existing)).toEqual({ id: 3, name: 'renamed', type: 'ssh', override_secret: false });

    const replaced = buildKeyFormSchema(true).parse({
      ...getKeyFormDefaults(existing),
      override_secret: true,
      ssh: { login: 'git', passphrase: '', private_key: 'KEY' },
    });
    expect(toKeyBody(replaced, existing)).toMatchObject({
      id: 3,
      override_secret: true,
      ssh: { login: 'git', private_key: 'KEY' },
      login_password: undefined,
    });
  });
});
