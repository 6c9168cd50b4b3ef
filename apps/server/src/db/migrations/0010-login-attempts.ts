import type { GantryMigration } from '../schema.ts';

export const loginAttempts: GantryMigration = {
  name: '0010-login-attempts',
  async up(db, h) {
    // One row per sign-in attempt still being counted: written before the password is checked, so
    // concurrent attempts all count, and shared by every server node on this store. A row is removed
    // again when its attempt succeeds or was refused without a check; failed ones age out.
    await h
      .finish(
        h
          .withId(db.schema.createTable('login_attempt'))
          .addColumn('address', 'varchar(64)', (c) => c.notNull())
          .addColumn('account', 'varchar(255)', (c) => c.notNull())
          .addColumn('attempted', 'varchar(40)', (c) => c.notNull()),
      )
      .execute();
    await db.schema
      .createIndex('login_attempt_address')
      .on('login_attempt')
      .columns(['address', 'attempted'])
      .execute();
    await db.schema
      .createIndex('login_attempt_account')
      .on('login_attempt')
      .columns(['account', 'address', 'attempted'])
      .execute();
  },
};
