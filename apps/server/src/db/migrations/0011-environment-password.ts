import { defineMigration, longText, nullable } from '../schema.ts';

export const environmentPassword = defineMigration('0011-environment-password', async (_db, h) => {
  // Semaphore's legacy vault password of a variable group, kept (encrypted) when a backup carries it.
  await h.addColumns('environment', { password: nullable(longText) });
});
