import { ErrorCode, MAX_JSON_DEPTH } from '@gantry/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { describeUnstorableText, toStorableText } from '../db/storable-text.ts';
import { isKnownPlainText } from './request-body.ts';

/** Why a parsed body cannot be taken: the first string (or key) that is no storable text, or nesting too deep. */
function findProblem(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return describeUnstorableText(value, path.join('.') || 'text');
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return undefined;
  if (path.length >= MAX_JSON_DEPTH)
    return `${path.slice(0, 3).join('.')} is nested more than ${MAX_JSON_DEPTH} levels deep`;
  for (const [key, item] of Object.entries(value)) {
    const found = describeUnstorableText(key, [...path, 'key'].join('.')) ?? findProblem(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Every string of a parsed body (its keys too) as the store can keep it; the parser has bounded its depth. */
function toStorableValue(value: unknown): unknown {
  if (typeof value === 'string') return toStorableText(value);
  if (Array.isArray(value)) return value.map(toStorableValue);
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [toStorableText(key), toStorableValue(item)]));
}

/**
 * A body, query or path holding text the store cannot keep as it is (describeUnstorableText: a NUL
 * character, half of a surrogate pair) is refused at the edge, the same way on every database. So is
 * a body nested so deeply that storing it (JSON.stringify) would overflow the stack. The routes in
 * `relayed` carry what task processes printed, relayed by a remote runner: their text is stored as a
 * line run here is (U+FFFD in place of each such character), since refusing it would stop the runner.
 */
export function registerTextGuard(app: FastifyInstance, { relayed }: { relayed: readonly Route[] }): void {
  const isRelayed = (request: FastifyRequest) =>
    relayed.some((route) => route.method === request.method && route.path === request.routeOptions.url);
  app.addHook('preValidation', async (request, reply) => {
    if (isRelayed(request)) {
      // Most reports hold no such character: only a body whose text could hold one is rebuilt.
      if (!isKnownPlainText(request.body)) request.body = toStorableValue(request.body);
      return;
    }
    const body = isKnownPlainText(request.body) ? undefined : request.body;
    const problem = findProblem(body) ?? findProblem(request.query) ?? findProblem(request.params);
    if (problem !== undefined) return reply.code(400).send({ error: problem, code: ErrorCode.validationFailed });
  });
}

/** A route as the contract names it. */
interface Route {
  method: string;
  path: string;
}
