import { usersApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { SIGNED_IN } from '../../http/route.ts';
import { readSessionCookie } from '../../http/session-cookie.ts';
import type { UsersService } from './users.service.ts';

// Admin-or-self rules depend on the target user, so the service checks them.
export function registerUsersRoutes(route: Routes, { users }: { users: UsersService }) {
  route(usersApi.list, SIGNED_IN, ({ actor }) => users.list(actor));
  route(usersApi.get, SIGNED_IN, ({ actor, params }) => users.get(actor, params.userId));
  route(usersApi.create, SIGNED_IN, ({ actor, body }) => users.create(actor, body));
  route(usersApi.update, SIGNED_IN, ({ actor, params, body, request }) =>
    users.update(actor, params.userId, body, readSessionCookie(request)),
  );
  route(usersApi.setPassword, SIGNED_IN, ({ actor, params, body, request }) =>
    users.setPassword(actor, params.userId, body, readSessionCookie(request)),
  );
  route(usersApi.remove, SIGNED_IN, ({ actor, params }) => users.remove(actor, params.userId));
}
