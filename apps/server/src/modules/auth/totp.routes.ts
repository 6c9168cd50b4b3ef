import { totpApi } from '@gantry/contract';
import type { FastifyReply } from 'fastify';
import type { Routes } from '../../http/route.ts';
import { PUBLIC, SIGNED_IN } from '../../http/route.ts';
import { credentialOf, readSessionCookie } from '../../http/session-cookie.ts';
import type { TotpService } from './totp.service.ts';

function sendPng(reply: FastifyReply, png: Buffer) {
  // The QR code carries the secret: never cached, by the browser or anything between.
  return reply.type('image/png').header('cache-control', 'no-store').send(png);
}

// The sign-in steps are PUBLIC because their session is not verified yet; the service reads it from the cookie.
export function registerTotpRoutes(route: Routes, { totp }: { totp: TotpService }) {
  route(totpApi.enrol, SIGNED_IN, ({ actor, params, request }) =>
    totp.enrol(actor, params.userId, credentialOf(request)),
  );
  route(totpApi.qr, SIGNED_IN, async ({ actor, params, reply, request }) =>
    sendPng(reply, await totp.qr(actor, params.userId, params.totpId, credentialOf(request))),
  );
  route(totpApi.confirm, SIGNED_IN, ({ actor, params, body, request }) =>
    totp.confirm(actor, params.userId, params.totpId, body.passcode, credentialOf(request)),
  );
  route(totpApi.remove, SIGNED_IN, ({ actor, params, body, request }) =>
    totp.remove(actor, params.userId, params.totpId, body?.passcode, credentialOf(request)),
  );

  route(totpApi.verify, PUBLIC, ({ request, body }) => totp.verify(readSessionCookie(request), body.passcode));
  route(totpApi.recovery, PUBLIC, ({ request, body }) => totp.recover(readSessionCookie(request), body.recovery_code));
  route(totpApi.enrolAtLogin, PUBLIC, ({ request }) => totp.enrolAtLogin(readSessionCookie(request)));
  route(totpApi.qrAtLogin, PUBLIC, async ({ request, params, reply }) =>
    sendPng(reply, await totp.qrAtLogin(readSessionCookie(request), params.totpId)),
  );
  route(totpApi.confirmAtLogin, PUBLIC, ({ request, params, body }) =>
    totp.confirmAtLogin(readSessionCookie(request), params.totpId, body.passcode),
  );
}
