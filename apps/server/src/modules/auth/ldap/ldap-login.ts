import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../config.ts';
import type { UserRow } from '../../users/users.table.ts';
import type { ExternalUsers } from '../external/external-users.ts';
import { SsoRefusal } from '../external/external-users.ts';
import type { LdapDirectory } from './ldap-directory.ts';

/**
 * Password sign-in through LDAP. A miss (unknown login, wrong password, directory down, or a login
 * that belongs to a local account) answers undefined, so the caller can still try the local
 * password: administrators keep their way in while the directory is unreachable.
 */
export function createLdapLogin({
  config,
  directory,
  externalUsers,
  logger,
}: {
  config: Config;
  directory: LdapDirectory;
  externalUsers: ExternalUsers;
  logger: FastifyBaseLogger;
}) {
  const mapping = { admin_groups: config.ldap_admin_groups, project_roles: config.ldap_project_roles };
  return {
    enabled: config.ldap_enable,
    async signIn(login: string, password: string): Promise<UserRow | undefined> {
      if (!config.ldap_enable) return undefined;
      try {
        const identity = await directory.authenticate(login, password);
        return identity ? await externalUsers.signIn(identity, { matchBy: 'login', mapping }) : undefined;
      } catch (error) {
        if (error instanceof SsoRefusal) logger.info({ login, reason: error.message }, 'LDAP sign-in refused');
        else logger.warn({ err: error }, 'LDAP sign-in failed');
        return undefined;
      }
    },
  };
}

export type LdapLogin = ReturnType<typeof createLdapLogin>;
