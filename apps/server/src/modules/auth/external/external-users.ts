import { createHash } from 'node:crypto';
import type { SsoErrorCode } from '@gantry/contract';
import type { Clock } from '../../../clock.ts';
import { toTimestamp } from '../../../clock.ts';
import type { UserAccounts } from '../../users/user-accounts.ts';
import type { UserRow } from '../../users/users.table.ts';
import type { GroupMapper, GroupMapping } from './group-mapping.ts';
import { isGroupMappingConfigured } from './group-mapping.ts';

/** Who an identity provider (OpenID Connect or LDAP) says signed in. */
export interface ExternalIdentity {
  /** The provider: 'ldap', or 'oidc:' and the provider's id. */
  source: string;
  /** The provider's own stable id of the identity: the LDAP entry's DN, the OpenID subject (`sub`). */
  subject: string;
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

/** A subject as stored: as it is when it fits the column, else its SHA-256 (a long DN must not be cut into another's). */
function fitSubject(subject: string): string {
  return subject.length <= MAX_FIELD ? subject : `sha256:${createHash('sha256').update(subject).digest('hex')}`;
}

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

  /**
   * The user of an identity seen before: found by its provider and subject, never by a username or an
   * address, which another provider (or another identity of the same one) could also claim.
   */
  async function findOrCreate(identity: ExternalIdentity, matchBy: 'email' | 'login'): Promise<UserRow> {
    const known = await users.findByExternalIdentity(identity.source, identity.subject);
    if (known) return known;
    const existing = await findExisting(identity, matchBy);
    if (existing && existing.external !== 1) {
      throw new SsoRefusal(
        'sso_local_user_conflict',
        `A local account already uses ${identity.email || identity.username}`,
      );
    }
    if (existing && existing.external_source !== null) {
      throw new SsoRefusal('sso_username_taken', `The account ${existing.username} belongs to another identity`);
    }
    if (existing) {
      // An external user from before identities were recorded: the first identity to sign in as it keeps it.
      await users.linkExternalIdentity(existing.id, identity.source, identity.subject);
      return { ...existing, external_source: identity.source, external_subject: identity.subject };
    }
    if (!identity.email) throw new SsoRefusal('sso_no_email', 'The identity provider did not tell the e-mail address');
    // The rules of a local username: no control or invisible character (a zero-width space, a bidirectional override).
    if (/\p{C}/u.test(identity.username)) {
      throw new SsoRefusal('sso_invalid_username', 'The username holds control or invisible characters');
    }
    if (!identity.username || (await users.findByLogin(identity.username))) {
      throw new SsoRefusal('sso_username_taken', `The username ${identity.username} is already taken`);
    }
    const created = await users.createExternal(
      {
        username: identity.username,
        name: identity.name || identity.username,
        email: identity.email,
        source: identity.source,
        subject: identity.subject,
      },
      toTimestamp(clock.now()),
    );
    // Another sign-in or an administrator took the name or the address since the look-up above.
    if (!created) throw new SsoRefusal('sso_username_taken', `The username ${identity.username} is already taken`);
    return created;
  }

  return {
    /**
     * Finds the Gantry user behind an external identity, creating an external user on first sign-in,
     * then applies the provider's group mapping. A local (password) account is never taken over, nor
     * an external one that belongs to another identity.
     */
    async signIn(
      identity: ExternalIdentity,
      options: { matchBy: 'email' | 'login'; mapping: GroupMapping },
    ): Promise<UserRow> {
      if (!identity.subject) throw new Error(`The identity provider ${identity.source} named no subject`);
      const normalized: ExternalIdentity = {
        source: identity.source,
        subject: fitSubject(identity.subject),
        username: identity.username.trim().toLowerCase().slice(0, MAX_FIELD),
        name: identity.name.trim().slice(0, MAX_FIELD),
        email: identity.email.trim().toLowerCase().slice(0, MAX_FIELD),
        groups: identity.groups,
      };
      let user = await findOrCreate(normalized, options.matchBy);
      if (isGroupMappingConfigured(options.mapping))
        user = await groupMapper.apply(user, normalized.groups, options.mapping);
      return user;
    },
  };
}

export type ExternalUsers = ReturnType<typeof createExternalUsers>;
