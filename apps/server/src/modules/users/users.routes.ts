import { usersApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { ADMIN, SELF_OR_ADMIN, SIGNED_IN } from '../../http/route.ts';
import { readSessionCookie } from '../../http/session-cookie.ts';
import type { UsersService } from './users.service.ts';

// The service checks the same rules again: the command line calls it without a route.
export function registerUsersRoutes(route: Routes, { users }: { users: UsersService }) {
  route(usersApi.list, SIGNED_IN, ({ actor }) => users.list(actor));
  route(usersApi.get, SIGNED_IN, ({ actor, params }) => users.get(actor, params.userId));
  route(usersApi.create, ADMIN, ({ actor, body }) => users.create(actor, body));
  route(usersApi.update, SELF_OR_ADMIN, ({ actor, params, body, request }) =>
    users.update(actor, params.userId, body, readSessionCookie(request)),
  );
  route(usersApi.setPassword, SELF_OR_ADMIN, ({ actor, params, body, request }) =>
    users.setPassword(actor, params.userId, body, readSessionCookie(request)),
  );
  route(usersApi.remove, ADMIN, ({ actor, params }) => users.remove(actor, params.userId));
}
