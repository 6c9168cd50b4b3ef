import { defineMigration, time, varchar } from '../schema.ts';

export const loginAttempts = defineMigration('0010-login-attempts', async (_db, h) => {
  // One row per sign-in attempt still being counted: written before the password is checked, so
  // concurrent attempts all count, and shared by every server node on this store. A row is removed
  // again when its attempt succeeds or was refused without a check; failed ones age out.
  await h.createTable('login_attempt', { address: varchar(64), account: varchar(255), attempted: time });
  await h.createIndexes('login_attempt', {
    login_attempt_address: ['address', 'attempted'],
    login_attempt_account: ['account', 'address', 'attempted'],
  });
});
