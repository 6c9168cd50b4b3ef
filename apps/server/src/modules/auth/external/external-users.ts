import type { SsoErrorCode } from '@gantry/contract';
import type { Clock } from '../../../clock.ts';
import { toTimestamp } from '../../../clock.ts';
import type { UserAccounts } from '../../users/user-accounts.ts';
import type { UserRow } from '../../users/users.table.ts';
import type { GroupMapper, GroupMapping } from './group-mapping.ts';
import { isGroupMappingConfigured } from './group-mapping.ts';

/** Who an identity provider (OpenID Connect or LDAP) says signed in. */
export interface ExternalIdentity {
  username: string;
  name: string;
  email: string;
  groups: string[];
}

/** A sign-in the provider accepted but Gantry refuses; the code tells the sign-in page why. */
export class SsoRefusal extends Error {
  constructor(
    readonly code: SsoErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SsoRefusal';
  }
}

const MAX_FIELD = 255;

export function createExternalUsers({
  users,
  groupMapper,
  clock,
}: {
  users: UserAccounts;
  groupMapper: GroupMapper;
  clock: Clock;
}) {
  async function findExisting(identity: ExternalIdentity, matchBy: 'email' | 'login'): Promise<UserRow | undefined> {
    if (matchBy === 'email') return identity.email ? users.findByLogin(identity.email) : undefined;
    return (
      (await users.findByLogin(identity.username)) ??
      (identity.email ? await users.findByLogin(identity.email) : undefined)
    );
  }

  return {
    /**
     * Finds the Gantry user behind an external identity, creating an external user on first sign-in,
     * then applies the provider's group mapping. A local (password) account is never taken over.
     */
    async signIn(
      identity: ExternalIdentity,
      options: { matchBy: 'email' | 'login'; mapping: GroupMapping },
    ): Promise<UserRow> {
      const normalized: ExternalIdentity = {
        username: identity.username.trim().toLowerCase().slice(0, MAX_FIELD),
        name: identity.name.trim().slice(0, MAX_FIELD),
        email: identity.email.trim().toLowerCase().slice(0, MAX_FIELD),
        groups: identity.groups,
      };
      let user = await findExisting(normalized, options.matchBy);
      if (user && user.external !== 1) {
        throw new SsoRefusal(
          'sso_local_user_conflict',
          `A local account already uses ${normalized.email || normalized.username}`,
        );
      }
      if (!user) {
        if (!normalized.email)
          throw new SsoRefusal('sso_no_email', 'The identity provider did not tell the e-mail address');
        if (!normalized.username || (await users.findByLogin(normalized.username))) {
          throw new SsoRefusal('sso_username_taken', `The username ${normalized.username} is already taken`);
        }
        user = await users.createExternal(
          { username: normalized.username, name: normalized.name || normalized.username, email: normalized.email },
          toTimestamp(clock.now()),
        );
      }
      if (isGroupMappingConfigured(options.mapping))
        user = await groupMapper.apply(user, normalized.groups, options.mapping);
      return user;
    },
  };
}

export type ExternalUsers = ReturnType<typeof createExternalUsers>;
