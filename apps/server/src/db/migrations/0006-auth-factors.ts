import type { GantryMigration } from '../schema.ts';

const time = 'varchar(40)';

export const authFactors: GantryMigration = {
  name: '0006-auth-factors',
  async up(db, h) {
    // One TOTP factor per user: the secret sealed with the secret box, the recovery code only as an
    // argon2 hash, and the last accepted time step so that a code cannot be used twice.
    await h
      .finish(
        h
          .withId(db.schema.createTable('user_totp'))
          .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
          .addColumn('created', time, (c) => c.notNull())
          .addColumn('secret', 'varchar(1024)', (c) => c.notNull())
          .addColumn('recovery_hash', 'varchar(255)')
          .addColumn('confirmed', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_used_step', 'integer'),
      )
      .execute();
    // '' = verified; otherwise the factor the session still awaits ('totp', or 'totp_enroll' when
    // the server requires TOTP the user has not set up). Existing sessions stay verified.
    await db.schema
      .alterTable('session')
      .addColumn('pending_factor', 'varchar(16)', (c) => c.notNull().defaultTo(''))
      .execute();
  },
};
