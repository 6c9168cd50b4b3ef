import { ErrorCode, MAX_JSON_DEPTH } from '@gantry/contract';
import type { FastifyInstance } from 'fastify';
import { isKnownPlainText } from './request-body.ts';

/** A UTF-16 surrogate without its other half: no character at all, which the databases store each their own way. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function describeText(text: string, name: string): string | undefined {
  if (text.includes('\u0000')) return `${name} must not contain NUL characters`;
  if (LONE_SURROGATE.test(text)) return `${name} must be valid Unicode text (it holds half of a surrogate pair)`;
  return undefined;
}

/** Why a parsed body cannot be taken: the first string (or key) that is no storable text, or nesting too deep. */
function findProblem(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return describeText(value, path.join('.') || 'text');
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return undefined;
  if (path.length >= MAX_JSON_DEPTH)
    return `${path.slice(0, 3).join('.')} is nested more than ${MAX_JSON_DEPTH} levels deep`;
  for (const [key, item] of Object.entries(value)) {
    const found = describeText(key, [...path, 'key'].join('.')) ?? findProblem(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * PostgreSQL cannot store a NUL character in text, and no field of ours has a use for one; half of a
 * surrogate pair is no character, and each database turns it into something else (two different
 * names would become one). A body, query or path that carries either is refused at the edge, the
 * same way on every database. So is a body nested so deeply that storing it (JSON.stringify) would
 * overflow the stack.
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    const body = isKnownPlainText(request.body) ? undefined : request.body;
    const problem = findProblem(body) ?? findProblem(request.query) ?? findProblem(request.params);
    if (problem !== undefined) return reply.code(400).send({ error: problem, code: ErrorCode.validationFailed });
  });
}
