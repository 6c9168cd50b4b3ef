import { type Readable, Transform } from 'node:stream';
import { ErrorCode, RUNNER_TOKEN_HEADER } from '@gantry/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, validationFailed } from '../errors.ts';
import type { AuthService } from '../modules/auth/auth.service.ts';
import type { RunnerRegistration } from '../modules/runners/runner-registration.ts';
import { readBearerToken, readSessionCookie } from './session-cookie.ts';

/** Far deeper than any body of ours, and shallow enough that neither parsing nor storing it can hurt. */
export const MAX_JSON_DEPTH = 64;

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
 * Where a body is nested deeper than MAX_JSON_DEPTH, found by counting brackets outside strings before
 * JSON.parse runs: parsing a body nested millions of levels deep costs seconds, this scan milliseconds.
 */
function isNestedTooDeep(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 0x22) {
      // Jump to the closing quote natively: a quote preceded by an odd number of backslashes is escaped.
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
      // An unterminated string is JSON.parse's to report.
      if (end === -1) return false;
      i = end;
    } else if (char === 0x7b || char === 0x5b) {
      depth += 1;
      if (depth > MAX_JSON_DEPTH) return true;
    } else if (char === 0x7d || char === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

function isEscaped(text: string, quote: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes += 1;
  return backslashes % 2 === 1;
}

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
    if (isNestedTooDeep(text))
      return done(validationFailed(`Request body is nested more than ${MAX_JSON_DEPTH} levels deep`), undefined);
    void parseJson(request, text, (error, value) => {
      // JSON can only carry a NUL character escaped as \u0000: without one in the text the parsed body holds none.
      if (!error && typeof value === 'object' && value !== null && !text.includes('\\u0000')) nulFreeBodies.add(value);
      done(error, value);
    });
  });
}

const nulFreeBodies = new WeakSet<object>();

/** Whether a parsed body is known to hold no NUL character, so that walking all of it again can be skipped. */
export function isKnownNulFree(body: unknown): boolean {
  return typeof body === 'object' && body !== null && nulFreeBodies.has(body);
}

export interface BodyLimitDeps {
  /** The configured largest body (max_body_bytes), for the routes that carry whole backups or task output. */
  maxBodyBytes: number;
  /** Route URLs (as registered) that take bodies up to maxBodyBytes from a known caller. */
  largeBodyRoutes: readonly string[];
  /** Route URLs with limits of their own (public machine endpoints), left alone. */
  ownLimitRoutes: (url: string) => boolean;
  /** Whether the request carries a valid credential: a session, an API token, a runner token. */
  isKnownCaller: (request: FastifyRequest) => Promise<boolean>;
}

/**
 * Caps bodies by who sends them, decided before a byte of the body is read: an anonymous caller gets
 * ANONYMOUS_BODY_LIMIT, a known one SIGNED_IN_BODY_LIMIT, or maxBodyBytes on the routes that need it.
 * Credentials are only looked up for bodies larger than the anonymous limit, so ordinary requests
 * pay nothing.
 */
export function registerBodyLimits(app: FastifyInstance, deps: BodyLimitDeps): void {
  const large = new Set(deps.largeBodyRoutes);
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (request.method === 'GET' || request.method === 'HEAD') return payload;
    const url = request.routeOptions.url;
    if (url === undefined || deps.ownLimitRoutes(url)) return payload;
    const routeLimit = Math.min(large.has(url) ? deps.maxBodyBytes : SIGNED_IN_BODY_LIMIT, deps.maxBodyBytes);
    const anonymousLimit = Math.min(ANONYMOUS_BODY_LIMIT, routeLimit);
    const declared = Number(request.headers['content-length'] ?? Number.NaN);
    const hasLength = Number.isFinite(declared);
    if (hasLength && declared <= anonymousLimit) return payload;
    // Over HTTP/1.1 a request with neither length nor chunked encoding has no body; counting it costs nothing.
    if (!hasLength && request.headers['transfer-encoding'] === undefined) return capStream(payload, anonymousLimit);
    const limit = (await deps.isKnownCaller(request)) ? routeLimit : anonymousLimit;
    if (!hasLength) return capStream(payload, limit);
    if (declared > limit) throw tooLarge();
    return payload;
  });
}

/** A request carries a valid credential: an API token, a fully signed-in session or a runner token. */
export function createKnownCallerCheck(deps: {
  auth: Pick<AuthService, 'findCaller'>;
  runnerRegistration: Pick<RunnerRegistration, 'isKnownToken'>;
}) {
  return async function isKnownCaller(request: FastifyRequest): Promise<boolean> {
    const bearer = readBearerToken(request);
    if (await deps.auth.findCaller(bearer, readSessionCookie(request))) return true;
    if (bearer) return false;
    const runnerToken = request.headers[RUNNER_TOKEN_HEADER];
    return typeof runnerToken === 'string' && runnerToken !== '' && deps.runnerRegistration.isKnownToken(runnerToken);
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
