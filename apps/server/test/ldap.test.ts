import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../src/config.ts';
import { readTestEnvironment } from '../src/config.ts';
import { openBareApp } from './bare-app.ts';
import {
  isSlapdInstalled,
  LDAP_ROOT_DN,
  LDAP_SUFFIX,
  startLdapTestServer,
  type LdapTestServer,
} from './ldap-test-server.ts';
import { ADMIN_LOGIN, ADMIN_PASSWORD, createTestApp, type TestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();
const available = isSlapdInstalled();
if (!available && !readTestEnvironment().ci) {
  console.warn(
    'Skipping the LDAP tests: /usr/sbin/slapd is not installed (apt-get install slapd ldap-utils). They always run in CI.',
  );
}

const CAROL_PASSWORD = 'carol-Ldap-pass1';
const DAVE_PASSWORD = 'dave-Ldap-pass1';
const SEED = `dn: ${LDAP_SUFFIX}
objectClass: dcObject
objectClass: organization
o: Gantry test
dc: gantry

dn: ou=people,${LDAP_SUFFIX}
objectClass: organizationalUnit
ou: people

dn: ou=contractors,${LDAP_SUFFIX}
objectClass: organizationalUnit
ou: contractors

dn: uid=carol,ou=people,${LDAP_SUFFIX}
objectClass: inetOrgPerson
uid: carol
cn: Carol Directory
sn: Directory
mail: Carol@Example.net
departmentNumber: ops
departmentNumber: gantry-admins
userPassword: ${CAROL_PASSWORD}

dn: uid=dave,ou=people,${LDAP_SUFFIX}
objectClass: inetOrgPerson
uid: dave
cn: Dave Deployer
sn: Deployer
mail: dave@example.net
departmentNumber: ops
userPassword: ${DAVE_PASSWORD}

dn: uid=admin,ou=people,${LDAP_SUFFIX}
objectClass: inetOrgPerson
uid: admin
cn: Directory Admin
sn: Admin
mail: directory-admin@example.net
userPassword: ldap-Admin-pass1

dn: uid=twin,ou=people,${LDAP_SUFFIX}
objectClass: inetOrgPerson
uid: twin
cn: Twin One
sn: One
mail: twin1@example.net
userPassword: twin-Pass-1

dn: uid=twin,ou=contractors,${LDAP_SUFFIX}
objectClass: inetOrgPerson
uid: twin
cn: Twin Two
sn: Two
mail: twin2@example.net
userPassword: twin-Pass-1
`;

let slapd: LdapTestServer | undefined;

function ldapConfig(server: LdapTestServer, overrides: ConfigInput = {}): ConfigInput {
  return {
    ldap_enable: true,
    // Semaphore's host:port form.
    ldap_server: server.url.replace('ldap://', ''),
    ldap_binddn: LDAP_ROOT_DN,
    ldap_bindpassword: server.rootPassword,
    ldap_searchdn: LDAP_SUFFIX,
    ldap_searchfilter: '(&(objectClass=inetOrgPerson)(uid=%s))',
    ldap_mappings: { dn: 'dn', mail: 'mail', uid: 'uid', cn: 'cn' },
    ...overrides,
  };
}

describe.runIf(available || readTestEnvironment().ci)('LDAP sign-in against a real slapd', () => {
  beforeAll(async () => {
    slapd = await startLdapTestServer(SEED);
  }, 60_000);
  afterAll(() => slapd?.close());

  describe.each(dialects)('on %s', (dialect) => {
    let t: TestApp;
    beforeAll(async () => {
      if (!slapd) throw new Error('slapd did not start');
      t = await createTestApp(
        dialect,
        ldapConfig(slapd, {
          ldap_groups_attribute: 'departmentNumber',
          ldap_admin_groups: ['gantry-admins'],
          ldap_project_roles: { ops: { project_id: 1, role: 'task_runner' } },
        }),
      );
      for (const secret of [CAROL_PASSWORD, DAVE_PASSWORD, slapd.rootPassword]) t.secrets.add(secret);
      const project = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Ops' } });
      expect(project.body).toMatchObject({ id: 1 });
    });
    afterAll(() => t.close());

    it('creates an external user on first LDAP sign-in with the mapped attributes, and reuses it', async () => {
      const session = await t.login('carol', CAROL_PASSWORD);
      const me = (await t.request('GET', '/api/user', { as: session })).body as { id: number };
      expect(me).toMatchObject({
        username: 'carol',
        name: 'Carol Directory',
        email: 'carol@example.net',
        external: true,
      });
      const again = await t.login('CAROL', CAROL_PASSWORD);
      expect((await t.request('GET', '/api/user', { as: again })).body).toMatchObject({ id: me.id });
    });

    it('maps directory groups to admin and project roles', async () => {
      const carol = await t.login('carol', CAROL_PASSWORD);
      expect((await t.request('GET', '/api/user', { as: carol })).body).toMatchObject({ admin: true });
      const dave = await t.login('dave', DAVE_PASSWORD);
      expect((await t.request('GET', '/api/user', { as: dave })).body).toMatchObject({ admin: false });
      expect((await t.request('GET', '/api/project/1/role', { as: dave })).body).toMatchObject({ role: 'task_runner' });
    });

    it('refuses a wrong directory password, an empty-looking login and filter injection', async () => {
      for (const body of [
        { auth: 'carol', password: 'wrong-password' },
        { auth: '*', password: CAROL_PASSWORD },
        { auth: 'carol)(uid=*', password: CAROL_PASSWORD },
        { auth: 'nobody', password: CAROL_PASSWORD },
      ]) {
        const response = await t.request('POST', '/api/auth/login', { body });
        expect(response.status, JSON.stringify(body)).toBe(401);
        expect(response.body).toMatchObject({ error: 'Incorrect login or password' });
      }
    });

    it('refuses a login that matches more than one directory entry', async () => {
      const response = await t.request('POST', '/api/auth/login', { body: { auth: 'twin', password: 'twin-Pass-1' } });
      expect(response.status).toBe(401);
    });

    it('never lets the directory take over a local account of the same name', async () => {
      const viaDirectory = await t.request('POST', '/api/auth/login', {
        body: { auth: ADMIN_LOGIN, password: 'ldap-Admin-pass1' },
      });
      expect(viaDirectory.status).toBe(401);
      const local = await t.request('POST', '/api/auth/login', {
        body: { auth: ADMIN_LOGIN, password: ADMIN_PASSWORD },
      });
      expect(local.status).toBe(204);
      expect((await t.request('GET', '/api/user', { as: t.adminCookie })).body).toMatchObject({ external: false });
    });

    it('keeps directory users from setting a local password', async () => {
      const dave = await t.login('dave', DAVE_PASSWORD);
      const me = (await t.request('GET', '/api/user', { as: dave })).body as { id: number };
      const change = await t.request('POST', `/api/users/${me.id}/password`, {
        as: dave,
        body: { password: 'L0cal-password' },
      });
      expect(change.status).toBe(400);
    });
  });

  describe('connection settings', () => {
    async function canSignIn(overrides: ConfigInput): Promise<number> {
      if (!slapd) throw new Error('slapd did not start');
      const bare = await openBareApp(ldapConfig(slapd, overrides));
      try {
        return (await bare.signIn('carol', CAROL_PASSWORD)).statusCode;
      } finally {
        await bare.close();
      }
    }

    it('signs in over ldaps (ldap_needtls) and StartTLS when the certificate is trusted', async () => {
      if (!slapd) throw new Error('slapd did not start');
      const ca = slapd.certificateFile;
      expect(
        await canSignIn({
          ldap_server: slapd.tlsUrl.replace('ldaps://', ''),
          ldap_needtls: true,
          ldap_tls_ca_file: ca,
        }),
      ).toBe(204);
      expect(await canSignIn({ ldap_server: slapd.tlsUrl, ldap_tls_ca_file: ca })).toBe(204);
      expect(await canSignIn({ ldap_starttls: true, ldap_tls_ca_file: ca })).toBe(204);
    });

    it('refuses an untrusted certificate unless verification is switched off', async () => {
      if (!slapd) throw new Error('slapd did not start');
      expect(await canSignIn({ ldap_server: slapd.tlsUrl })).toBe(401);
      expect(await canSignIn({ ldap_starttls: true })).toBe(401);
      expect(await canSignIn({ ldap_server: slapd.tlsUrl, ldap_tls_skip_verify: true })).toBe(204);
    });

    it('answers 401, not 500, when the service bind fails or the server is down', async () => {
      expect(await canSignIn({ ldap_bindpassword: 'wrong' })).toBe(401);
      expect(await canSignIn({ ldap_server: '127.0.0.1:9' })).toBe(401);
    });

    it('accepts directory users only when password sign-in is switched off', async () => {
      if (!slapd) throw new Error('slapd did not start');
      const bare = await openBareApp(ldapConfig(slapd, { password_login_disabled: true }));
      try {
        expect(await bare.readLoginOptions()).toMatchObject({ login_with_password: true });
        expect((await bare.signIn()).statusCode).toBe(401);
        expect((await bare.signIn('carol', CAROL_PASSWORD)).statusCode).toBe(204);
      } finally {
        await bare.close();
      }
    });
  });
});
