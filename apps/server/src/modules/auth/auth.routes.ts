import { authApi, userApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { PUBLIC, SIGNED_IN } from '../../http/route.ts';
import type { SessionCookies } from '../../http/session-cookie.ts';
import { credentialOf, readBearerToken, readSessionCookie } from '../../http/session-cookie.ts';
import type { ProjectsService } from '../projects/projects.service.ts';
import { toUser } from '../users/users.service.ts';
import type { AuthService } from './auth.service.ts';
import type { TotpService } from './totp.service.ts';

export function registerAuthRoutes(
  route: Routes,
  {
    auth,
    projects,
    totp,
    sessionCookies,
  }: { auth: AuthService; projects: ProjectsService; totp: TotpService; sessionCookies: SessionCookies },
) {
  route(authApi.loginOptions, PUBLIC, () => auth.loginOptions());
  route(authApi.login, PUBLIC, async ({ body, request, reply }) =>
    sessionCookies.set(
      request,
      reply,
      await auth.login(body, { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' }),
    ),
  );
  route(authApi.logout, PUBLIC, async ({ request, reply }) => {
    await auth.logout(readSessionCookie(request));
    sessionCookies.clear(request, reply);
  });

  route(userApi.current, SIGNED_IN, async ({ actor }) => {
    const factor = await totp.statusOf(actor.id);
    return {
      ...toUser(actor),
      can_create_project: projects.canCreate(actor),
      has_active_subscription: false as const,
      ...(factor ? { totp: factor } : {}),
    };
  });
  route(userApi.listTokens, SIGNED_IN, ({ actor, request }) => auth.listTokens(actor.id, credentialOf(request)));
  route(userApi.createToken, SIGNED_IN, ({ actor, body, request }) =>
    auth.createToken(actor.id, body, credentialOf(request)),
  );
  route(userApi.deleteToken, SIGNED_IN, ({ actor, params, request }) =>
    auth.deleteToken(actor.id, params.tokenId, readBearerToken(request)),
  );
}
