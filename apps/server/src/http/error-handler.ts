import { ErrorCode } from '@gantry/contract';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { describeStoreConflict } from '../db/errors.ts';
import { AppError } from '../errors.ts';

interface ValidationIssue {
  message: string;
  instancePath: string;
  keyword: string;
}

const ZOD_DEFAULT_MESSAGE =
  /^(Invalid (input|option|string|key|element|value|union|type|date|format)|Too (small|big)|Unrecognized)\b/;

/**
 * Turns the first failed rule into one sentence: the seed's own message as it is, a message that
 * names no subject ("must be ...") after its field, and zod's generic texts after "field:".
 */
function describeValidation(issue: ValidationIssue, context: string | undefined): string {
  const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (context === 'body' && field === '' && issue.keyword === 'invalid_type')
    return 'Request body must be a JSON object';
  if (!field) return issue.message;
  if (/^[a-z]/.test(issue.message)) return `${field} ${issue.message}`;
  if (ZOD_DEFAULT_MESSAGE.test(issue.message)) return `${field}: ${issue.message}`;
  return issue.message;
}

const CLIENT_ERROR_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Invalid content length',
};

/** The single place that formats every error as {"error": "...", "code": "..."}. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status === 429) request.log.warn({ ip: request.ip }, error.message);
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.code(error.status).send({ error: error.message, code: error.code });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0] as ValidationIssue;
      return reply
        .code(400)
        .send({ error: describeValidation(first, error.validationContext), code: ErrorCode.validationFailed });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send({ error: 'Request body is too large', code: ErrorCode.payloadTooLarge });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = CLIENT_ERROR_MESSAGES[error.code] ?? error.message;
      return reply.code(status).send({ error: message, code: ErrorCode.badRequest });
    }
    const conflict = describeStoreConflict(error);
    if (conflict !== undefined) {
      request.log.warn({ err: error }, 'request lost a race in the store');
      return reply.code(409).send({ error: conflict, code: ErrorCode.conflict });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send({ error: 'Internal server error', code: ErrorCode.internal });
  });
}

/** Errors Fastify's router answers itself, before any hook or route, by their code. */
const FRAMEWORK_ERROR_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'The URL is not valid (bad percent-encoding)',
  FST_ERR_MAX_PARAM_LENGTH: 'A part of the URL is too long',
};

/**
 * Fastify's frameworkErrors: a URL its router cannot read (bad percent-encoding, a path part too long)
 * gets the same {"error", "code"} body as every other refusal, never Fastify's own error object.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status =
    error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  void reply
    .code(status)
    .send({ error: FRAMEWORK_ERROR_MESSAGES[error.code] ?? 'Bad request', code: ErrorCode.badRequest });
}

/** Requests Node's HTTP parser refuses before Fastify sees them, by the parser's error code. */
const MALFORMED_REQUESTS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timed out'],
};

/**
 * Fastify's clientErrorHandler: a request the HTTP parser could not read (broken framing, a negative
 * Content-Length, headers or an address too long) gets the same {"error", "code"} body as every other
 * refusal, then the connection closes.
 */
export function answerMalformedRequest(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] = MALFORMED_REQUESTS[error.code ?? ''] ?? [400, 'Malformed HTTP request'];
  const body = JSON.stringify({ error: message, code: ErrorCode.badRequest });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
