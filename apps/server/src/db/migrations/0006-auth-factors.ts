import { defineMigration, integer, nullable, references, time, unique, varchar } from '../schema.ts';

export const authFactors = defineMigration('0006-auth-factors', async (_db, h) => {
  // One TOTP factor per user: the secret sealed with the secret box, the recovery code only as an
  // argon2 hash, and the last accepted time step so that a code cannot be used twice.
  await h.createTable('user_totp', {
    user_id: unique(references('users', 'cascade')),
    created: time,
    secret: varchar(1024),
    recovery_hash: nullable(varchar(255)),
    confirmed: integer(0),
    last_used_step: nullable(integer()),
  });
  // '' = verified; otherwise the factor the session still awaits ('totp', or 'totp_enroll' when
  // the server requires TOTP the user has not set up). Existing sessions stay verified.
  await h.addColumns('session', { pending_factor: varchar(16, '') });
});
