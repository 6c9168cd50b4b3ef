import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { resolveProjectRoles } from '../src/modules/auth/external/group-mapping.ts';
import { buildUserFilter, toLdapUrl } from '../src/modules/auth/ldap/ldap-directory.ts';
import { readClaim, readGroups } from '../src/modules/auth/oidc/oidc-claims.ts';
import { toSafeReturnPath } from '../src/modules/auth/oidc/oidc-flow.ts';

describe('claims mapping', () => {
  const claims = {
    email: '',
    upn: 'u@corp.example',
    given_name: 'Ada',
    family_name: 'Lovelace',
    realm_access: { roles: ['ops', 'dev'] },
    team: 'solo',
    n: 7,
  };

  it('takes the first non-empty of a|b alternatives and follows dotted paths', () => {
    expect(readClaim(claims, 'email|upn')).toBe('u@corp.example');
    expect(readClaim(claims, 'missing|n')).toBe('7');
    expect(readClaim(claims, 'realm_access.missing')).toBe('');
  });

  it('fills Semaphore-style templates', () => {
    expect(readClaim(claims, '{{ .given_name }} {{.family_name}}')).toBe('Ada Lovelace');
    expect(readClaim(claims, '{{ .nothing }}')).toBe('');
  });

  it('reads groups from a list, a single string, or nothing', () => {
    expect(readGroups(claims, 'realm_access.roles')).toEqual(['ops', 'dev']);
    expect(readGroups(claims, 'groups|team')).toEqual(['solo']);
    expect(readGroups(claims, 'groups')).toEqual([]);
  });
});

describe('group mapping', () => {
  it('grants the strongest role of the groups held, case-insensitively, and names every mapped project', () => {
    const mapping = {
      project_roles: {
        Deployers: [{ project_id: 1, role: 'task_runner' as const }],
        leads: [
          { project_id: 1, role: 'manager' as const },
          { project_id: 2, role: 'owner' as const },
        ],
        guests: [{ project_id: 3, role: 'guest' as const }],
      },
    };
    const roles = resolveProjectRoles(mapping, ['deployers', 'LEADS']);
    expect([...roles]).toEqual([
      [1, 'manager'],
      [2, 'owner'],
      [3, undefined],
    ]);
    expect(resolveProjectRoles(mapping, ['deployers']).get(1)).toBe('task_runner');
  });
});

describe('return paths', () => {
  it('keeps paths on this site and sends everything else home', () => {
    expect(toSafeReturnPath('/project/3/templates?x=1')).toBe('/project/3/templates?x=1');
    // A Location header holds ASCII only: the rest is percent-encoded, and stays a path of this site.
    expect(toSafeReturnPath('/。/evil.example')).toBe('/%E3%80%82/evil.example');
    expect(toSafeReturnPath('/project/3/history?q=a b')).toBe('/project/3/history?q=a%20b');
    for (const bad of [
      undefined,
      '',
      'project/3',
      '//evil.example',
      '/\\evil.example',
      'https://evil.example',
      '/api/user',
      '/auth/login?error=x',
      '/a\nb',
      '/a\u007fb',
      '/half\ud800',
    ]) {
      expect(toSafeReturnPath(bad), String(bad)).toBe('/');
    }
  });
});

describe('LDAP settings', () => {
  it('escapes the login inside the search filter (RFC 4515)', () => {
    expect(buildUserFilter('(&(objectClass=person)(uid=%s))', 'a*)(uid=\\x\0')).toBe(
      '(&(objectClass=person)(uid=a\\2a\\29\\28uid=\\5cx\\00))',
    );
  });

  it('reads Semaphore host:port servers and full URLs', () => {
    expect(toLdapUrl('ldap.corp:389', false)).toBe('ldap://ldap.corp:389');
    expect(toLdapUrl('ldap.corp:636', true)).toBe('ldaps://ldap.corp:636');
    expect(toLdapUrl('LDAPS://ldap.corp', false)).toBe('LDAPS://ldap.corp');
  });
});

describe('single sign-on configuration', () => {
  it('reads the LDAP keys from GANTRY_ environment variables, JSON for maps and lists', () => {
    const config = loadConfig(
      { data_dir: '/tmp/gantry-config-test' },
      {
        GANTRY_LDAP_ENABLE: 'yes',
        GANTRY_LDAP_SERVER: 'ldap.corp:389',
        GANTRY_LDAP_BINDDN: 'cn=svc,dc=corp',
        GANTRY_LDAP_MAPPINGS: '{"uid":"sAMAccountName","mail":"userPrincipalName"}',
        GANTRY_LDAP_ADMIN_GROUPS: '["cn=admins,dc=corp"]',
        GANTRY_LDAP_PROJECT_ROLES: '{"cn=ops,dc=corp":{"project_id":2,"role":"manager"}}',
      },
    );
    expect(config).toMatchObject({
      ldap_enable: true,
      ldap_server: 'ldap.corp:389',
      ldap_binddn: 'cn=svc,dc=corp',
      ldap_searchfilter: '(uid=%s)',
      ldap_mappings: { dn: 'dn', uid: 'sAMAccountName', mail: 'userPrincipalName', cn: 'cn' },
      ldap_admin_groups: ['cn=admins,dc=corp'],
      ldap_project_roles: { 'cn=ops,dc=corp': [{ project_id: 2, role: 'manager' }] },
    });
  });

  it('refuses LDAP switched on without a server, and project roles that are not roles', () => {
    expect(() => loadConfig({ ldap_enable: true }, {})).toThrow('ldap_server is required');
    expect(() => loadConfig({}, { GANTRY_LDAP_ADMIN_GROUPS: 'cn=admins,dc=corp' })).toThrow(
      'GANTRY_LDAP_ADMIN_GROUPS must hold JSON',
    );
    expect(() =>
      loadConfig({ oidc_providers: { x: { project_roles: { g: { project_id: 1, role: 'king' } } } } } as never, {}),
    ).toThrow(/Invalid configuration/);
  });

  it("accepts Semaphore's password_login_disable spelling", () => {
    expect(loadConfig({ password_login_disable: true }, {}).password_login_disabled).toBe(true);
    expect(loadConfig({}, { GANTRY_PASSWORD_LOGIN_DISABLED: 'true' }).password_login_disabled).toBe(true);
    expect(loadConfig({}, {}).password_login_disabled).toBe(false);
  });
});
