import { type Readable, Transform } from 'node:stream';
import { ErrorCode, RUNNER_TOKEN_HEADER, isJsonNestedTooDeep, nestedTooDeep } from '@gantry/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, validationFailed } from '../errors.ts';
import type { AuthService } from '../modules/auth/auth.service.ts';
import type { RunnerRegistration } from '../modules/runners/runner-registration.ts';
import { readBearerToken, readSessionCookie } from './session-cookie.ts';

/**
 * Bodies a caller may send before it has proven who it is. The largest legitimate ones (a sign-in with
 * a 1024-character password, a second-factor code, a runner registration) are well under 4 KiB.
 */
export const ANONYMOUS_BODY_LIMIT = 64 * 1024;

/**
 * Bodies of signed-in callers on ordinary routes. Parsing 3 MiB of the densest JSON (and checking its
 * depth) takes about 30 ms, under the 50 ms a request may hold the event loop; it still fits the largest
 * fields of the contract (an environment's 1 MiB of JSON variables and 1 MiB of environment variables).
 */
export const SIGNED_IN_BODY_LIMIT = 3 * 1024 * 1024;

const tooLarge = () => new AppError(413, ErrorCode.payloadTooLarge, 'Request body is too large');

/**
 * Every body is read as JSON whatever its content type says: API clients post JSON as `curl -d` does
 * (application/x-www-form-urlencoded), as text/plain or with no type at all, and Semaphore reads them
 * all. An empty body is no body, so `Content-Type: application/json` without a body (how Semaphore's
 * clients send their DELETEs and body-less POSTs) reaches the route, and a route that needs a body
 * answers its own validation error. Scopes with their own parsers (webhooks, the Terraform state
 * backend) replace this one.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  // Fastify's own parser, which refuses __proto__ and constructor.prototype keys.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (!/\S/.test(text)) return done(null, undefined);
    if (isJsonNestedTooDeep(text)) return done(validationFailed(nestedTooDeep('Request body')), undefined);
    void parseJson(request, text, (error, value) => {
      if (!error && typeof value === 'object' && value !== null && !ESCAPED_UNSTORABLE.test(text))
        plainTextBodies.add(value);
      done(error, value);
    });
  });
}

/**
 * JSON can carry a NUL character or a lone surrogate only as an escape (\u0000, \ud800-\udfff): bytes
 * that are not UTF-8 decode to U+FFFD. Without such an escape in the text the parsed body holds neither.
 */
const ESCAPED_UNSTORABLE = /\\u(0000|[dD][89a-fA-F])/;

const plainTextBodies = new WeakSet<object>();

/** Whether a parsed body is known to hold no NUL character nor lone surrogate, so that walking all of it again can be skipped. */
export function isKnownPlainText(body: unknown): boolean {
  return typeof body === 'object' && body !== null && plainTextBodies.has(body);
}

type CallerCheck = (request: FastifyRequest) => Promise<boolean>;

export interface BodyLimitDeps {
  /** The configured largest body (max_body_bytes), for the routes that carry whole backups or task output. */
  maxBodyBytes: number;
  /** Route URLs (as registered) that take bodies up to maxBodyBytes, each from the callers its check knows. */
  largeBodyRoutes: ReadonlyMap<string, CallerCheck>;
  /** Route URLs with limits of their own (public machine endpoints), left alone. */
  ownLimitRoutes: (url: string) => boolean;
  /** Whether the request carries a valid credential: a session, an API token, a runner token. */
  isKnownCaller: CallerCheck;
}

/**
 * Caps bodies by who sends them, decided before a byte of the body is read: an anonymous caller gets
 * ANONYMOUS_BODY_LIMIT, a known one SIGNED_IN_BODY_LIMIT, and maxBodyBytes only the caller a large-body
 * route is for (a runner on the runner's route, a user on the restore). Credentials are only looked up
 * for bodies larger than the anonymous limit, so ordinary requests pay nothing.
 */
export function registerBodyLimits(app: FastifyInstance, deps: BodyLimitDeps): void {
  const limitFor = async (request: FastifyRequest, url: string): Promise<number> => {
    const largeCaller = deps.largeBodyRoutes.get(url);
    if (largeCaller && (await largeCaller(request))) return deps.maxBodyBytes;
    if (await deps.isKnownCaller(request)) return Math.min(SIGNED_IN_BODY_LIMIT, deps.maxBodyBytes);
    return Math.min(ANONYMOUS_BODY_LIMIT, deps.maxBodyBytes);
  };
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (request.method === 'GET' || request.method === 'HEAD') return payload;
    const url = request.routeOptions.url;
    if (url === undefined || deps.ownLimitRoutes(url)) return payload;
    const anonymousLimit = Math.min(ANONYMOUS_BODY_LIMIT, deps.maxBodyBytes);
    const declared = Number(request.headers['content-length'] ?? Number.NaN);
    const hasLength = Number.isFinite(declared);
    if (hasLength && declared <= anonymousLimit) return payload;
    // Over HTTP/1.1 a request with neither length nor chunked encoding has no body; counting it costs nothing.
    if (!hasLength && request.headers['transfer-encoding'] === undefined) return capStream(payload, anonymousLimit);
    const limit = await limitFor(request, url);
    if (!hasLength) return capStream(payload, limit);
    if (declared > limit) throw tooLarge();
    return payload;
  });
}

/**
 * Who a request comes from, for its body limit: a user (an API token or a fully signed-in session), a
 * runner (its token), or either.
 */
export function createCallerChecks(deps: {
  auth: Pick<AuthService, 'findCaller'>;
  runnerRegistration: Pick<RunnerRegistration, 'isKnownToken'>;
}) {
  const isUser: CallerCheck = async (request) =>
    (await deps.auth.findCaller(readBearerToken(request), readSessionCookie(request))) !== undefined;
  const isRunner: CallerCheck = async (request) => {
    const runnerToken = request.headers[RUNNER_TOKEN_HEADER];
    return typeof runnerToken === 'string' && runnerToken !== '' && deps.runnerRegistration.isKnownToken(runnerToken);
  };
  return {
    isUser,
    isRunner,
    isKnownCaller: async (request: FastifyRequest) => (await isUser(request)) || isRunner(request),
  };
}

/** A chunked body has no declared length: count it as it streams and stop at the limit. */
function capStream(payload: Readable, limit: number): Readable {
  let received = 0;
  const capped = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > limit) callback(tooLarge());
      else callback(null, chunk);
    },
  });
  payload.on('error', (error) => capped.destroy(error));
  return payload.pipe(capped);
}
