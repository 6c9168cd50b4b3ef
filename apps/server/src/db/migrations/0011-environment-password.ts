import type { GantryMigration } from '../schema.ts';

export const environmentPassword: GantryMigration = {
  name: '0011-environment-password',
  async up(db, h) {
    // Semaphore's legacy vault password of a variable group, kept (encrypted) when a backup carries it.
    await db.schema.alterTable('environment').addColumn('password', h.longText).execute();
  },
};
