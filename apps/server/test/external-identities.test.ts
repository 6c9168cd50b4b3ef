import { describe, expect, it } from 'vitest';
import { createExternalUsers, type ExternalIdentity } from '../src/modules/auth/external/external-users.ts';
import type { GroupMapper } from '../src/modules/auth/external/group-mapping.ts';
import { createUsersRepository } from '../src/modules/users/users.repository.ts';
import { createUserAccounts } from '../src/modules/users/user-accounts.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

const NO_MAPPING = {};
const unusedMapper = {} as GroupMapper;

describe.each(dialects)('external identities on %s', (dialect) => {
  const t = useTestApp(dialect);
  const externalUsers = () =>
    createExternalUsers({
      users: createUserAccounts(createUsersRepository(t.runtime.connection.db, dialect), () => undefined),
      groupMapper: unusedMapper,
      clock: { now: () => new Date() },
    });
  const identity = (fields: Partial<ExternalIdentity>): ExternalIdentity => ({
    source: 'ldap',
    subject: 'uid=nobody,dc=example,dc=org',
    username: 'nobody',
    name: 'Nobody',
    email: 'nobody@example.org',
    groups: [],
    ...fields,
  });
  const signIn = (who: ExternalIdentity, matchBy: 'email' | 'login') =>
    externalUsers().signIn(who, { matchBy, mapping: NO_MAPPING });
  const refusal = async (who: ExternalIdentity, matchBy: 'email' | 'login') =>
    signIn(who, matchBy).then(
      () => 'signed in',
      (error: unknown) => (error as { code?: string }).code,
    );

  it('finds a user again by provider and subject, whatever the username or address became', async () => {
    const frank = identity({
      subject: 'uid=frank,ou=people,dc=example,dc=org',
      username: 'frank',
      email: 'frank@example.org',
    });
    const first = await signIn(frank, 'login');
    const renamed = await signIn({ ...frank, username: 'frank.b', email: 'fb@example.org' }, 'login');
    expect(renamed.id).toBe(first.id);
  });

  it('lets no other identity, of another provider or the same one, into an external user by its address or name', async () => {
    const ldapUser = await signIn(
      identity({ subject: 'uid=grace,dc=example,dc=org', username: 'grace', email: 'grace@example.org' }),
      'login',
    );
    // An OpenID identity whose (verified) address is the LDAP user's.
    const mallory = identity({
      source: 'oidc:test',
      subject: 'sub-mallory',
      username: 'mallory',
      email: 'grace@example.org',
    });
    expect(await refusal(mallory, 'email')).toBe('sso_username_taken');
    // An LDAP entry of another DN whose uid is the name of an OpenID user.
    const eve = await signIn(
      identity({ source: 'oidc:test', subject: 'sub-eve', username: 'eve', email: 'eve@example.org' }),
      'email',
    );
    expect(
      await refusal(
        identity({ subject: 'uid=eve,ou=other,dc=example,dc=org', username: 'eve', email: 'x@example.org' }),
        'login',
      ),
    ).toBe('sso_username_taken');
    expect(
      (await signIn(identity({ source: 'oidc:test', subject: 'sub-eve', email: 'eve@example.org' }), 'email')).id,
    ).toBe(eve.id);
    expect(ldapUser.external_source).toBe('ldap');
  });

  it('gives an external user made before identities were recorded to the first identity that signs in as it', async () => {
    const made = await t.request('POST', '/api/users', {
      as: t.adminCookie,
      body: { username: 'heidi', name: 'Heidi', email: 'heidi@example.org', external: true },
    });
    expect(made.status, made.text).toBe(201);
    const heidi = identity({ subject: 'uid=heidi,dc=example,dc=org', username: 'heidi', email: 'heidi@example.org' });
    expect((await signIn(heidi, 'login')).id).toBe((made.body as { id: number }).id);
    expect(await refusal({ ...heidi, subject: 'uid=heidi,ou=impostors,dc=example,dc=org' }, 'login')).toBe(
      'sso_username_taken',
    );
  });

  it("makes no user whose username is another user's email, nor whose email is another user's username", async () => {
    await t.createUser('judy');
    const crossed = [
      identity({ subject: 'uid=judy-mail,dc=example,dc=org', username: 'Judy@Example.com', email: 'jm@example.org' }),
      identity({ subject: 'uid=judy-name,dc=example,dc=org', username: 'jn', email: 'JUDY' }),
    ];
    for (const who of crossed)
      for (const matchBy of ['login', 'email'] as const) expect(await refusal(who, matchBy)).not.toBe('signed in');
    const names = ((await t.request('GET', '/api/users', { as: t.adminCookie })).body as { username: string }[]).map(
      (user) => user.username,
    );
    expect(names).not.toContain('judy@example.com');
    expect(names).not.toContain('jn');
  });

  it('makes no user whose username holds a control or invisible character, as a local username may not', async () => {
    for (const username of ['ad\u200bmin', 'eve\u202egnp', 'tab\tbed', 'bell\u0007']) {
      const who = identity({ subject: `uid=${username},dc=example,dc=org`, username, email: 'odd@example.org' });
      for (const matchBy of ['login', 'email'] as const)
        expect(await refusal(who, matchBy)).toBe('sso_invalid_username');
    }
    const names = ((await t.request('GET', '/api/users', { as: t.adminCookie })).body as { username: string }[]).map(
      (user) => user.username,
    );
    expect(names.filter((name) => /\p{C}/u.test(name))).toEqual([]);
  });

  it('still never takes over a local account', async () => {
    await t.createUser('ivan');
    expect(
      await refusal(
        identity({ subject: 'uid=ivan,dc=example,dc=org', username: 'ivan', email: 'ivan@x.org' }),
        'login',
      ),
    ).toBe('sso_local_user_conflict');
  });
});
