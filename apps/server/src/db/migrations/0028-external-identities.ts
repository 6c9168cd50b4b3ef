import { defineMigration, nullable, varchar } from '../schema.ts';

export const externalIdentities = defineMigration('0028-external-identities', async (_db, h) => {
  // Which identity an external user belongs to: the provider ('ldap', 'oidc:<id>') and the provider's
  // own stable id for it (an LDAP entry's DN, an OpenID subject). Users are found by it, not by a
  // username or an e-mail address another provider could also claim.
  await h.addColumns('users', { external_source: nullable(varchar(255)), external_subject: nullable(varchar(255)) });
  await h.createUniqueIndexes('users', { users_external_identity: ['external_source', 'external_subject'] });
});
