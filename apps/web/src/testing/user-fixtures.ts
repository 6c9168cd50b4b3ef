import type { CurrentUser } from '@gantry/contract';

/** The signed-in user as /api/user returns it (an administrator), with the fields a test cares about overridden. */
export function makeCurrentUser(fields: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 1,
    created: '2025-01-01T00:00:00Z',
    username: 'admin',
    name: 'Admin',
    email: 'admin@example.com',
    admin: true,
    external: false,
    alert: false,
    pro: false,
    can_create_project: true,
    has_active_subscription: false,
    ...fields,
  };
}
