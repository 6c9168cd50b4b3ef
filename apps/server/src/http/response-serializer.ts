import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Responses leave through their contract schema, which is an allowlist: a key the schema does not
 * name (a password hash, an encrypted secret) never reaches the client. Parsing every response with
 * zod enforces that, but also re-validates every string and number the server itself produced, and
 * was a third of a history request's CPU. Each response schema is therefore compiled once into a
 * function that copies only the keys the schema names and checks each value's kind; whatever it
 * does not recognise (a union, a transform, a strict or open object, a default) and every value of
 * an unexpected kind is handed to zod for that part, so the output and the errors stay zod's.
 */

type Copy = (value: unknown) => unknown;
type Schema = z.core.$ZodType;

const compiled = new WeakMap<Schema, Copy>();

function zodPart(schema: Schema): Copy {
  return (value) => z.parse(schema, value);
}

/** Checks that rewrite the value (trim, lower case, `overwrite`) must run, so such schemas go to zod. */
function rewritesValue(schema: Schema): boolean {
  return (schema._zod.def.checks ?? []).some((check) => check._zod.def.check === 'overwrite');
}

function isRecordLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The copying function of a schema, built on first use (shapes may refer to themselves). */
export function allowlistCopy(schema: Schema): Copy {
  let copy = compiled.get(schema);
  if (!copy) {
    let built: Copy | undefined;
    copy = (value) => (built ??= build(schema))(value);
    compiled.set(schema, copy);
  }
  return copy;
}

function build(schema: Schema): Copy {
  const slow = zodPart(schema);
  if (rewritesValue(schema)) return slow;
  const def = schema._zod.def;
  switch (def.type) {
    case 'string':
      return (value) => (typeof value === 'string' ? value : slow(value));
    case 'number':
      return (value) => (typeof value === 'number' && Number.isFinite(value) ? value : slow(value));
    case 'boolean':
      return (value) => (typeof value === 'boolean' ? value : slow(value));
    case 'null':
      return (value) => (value === null ? value : slow(value));
    case 'unknown':
    case 'any':
      return (value) => value;
    case 'literal': {
      const values = new Set((def as z.core.$ZodLiteralDef<z.core.util.Literal>).values);
      return (value) => (values.has(value as z.core.util.Literal) ? value : slow(value));
    }
    case 'enum': {
      const values = new Set(Object.values((def as z.core.$ZodEnumDef).entries));
      return (value) => (values.has(value as string | number) ? value : slow(value));
    }
    case 'optional': {
      const inner = allowlistCopy((def as z.core.$ZodOptionalDef).innerType);
      return (value) => (value === undefined ? value : inner(value));
    }
    case 'nullable': {
      const inner = allowlistCopy((def as z.core.$ZodNullableDef).innerType);
      return (value) => (value === null ? value : inner(value));
    }
    case 'array': {
      const element = allowlistCopy((def as z.core.$ZodArrayDef).element);
      return (value) => (Array.isArray(value) ? value.map(element) : slow(value));
    }
    case 'object': {
      const objectDef = def as z.core.$ZodObjectDef;
      // A strict object refuses unknown keys and an open one keeps them: only zod does either.
      if (objectDef.catchall) return slow;
      const fields = Object.entries(objectDef.shape).map(([key, field]) => [key, allowlistCopy(field)] as const);
      return (value) => {
        if (!isRecordLike(value)) return slow(value);
        const out: Record<string, unknown> = {};
        for (const [key, copy] of fields) {
          const result = copy(value[key]);
          if (result !== undefined) out[key] = result;
        }
        return out;
      };
    }
    case 'record': {
      const recordDef = def as z.core.$ZodRecordDef;
      const keyDef = recordDef.keyType._zod.def;
      // Keys of a kind other than any string are checked (and may be refused) by zod.
      if (keyDef.type !== 'string' || (keyDef.checks ?? []).length > 0) return slow;
      const entry = allowlistCopy(recordDef.valueType);
      return (value) =>
        isRecordLike(value)
          ? Object.fromEntries(Object.keys(value).map((key) => [key, entry(value[key])]))
          : slow(value);
    }
    default:
      return slow;
  }
}

/**
 * Fastify's serializer for the routes' zod response schemas. A response the copy cannot take (a
 * value of the wrong kind) goes through zod's serializer, which answers with its own error. With
 * `verify`, every response is also parsed by zod and both must give the same JSON: the API tests
 * run this way, so every response a test reads proves the copy right.
 */
export function createResponseSerializer({ verify }: { verify: boolean }): FastifySerializerCompiler<unknown> {
  return (route) => {
    const byZod = zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
    if (!(route.schema instanceof z.core.$ZodType)) return byZod;
    const copy = allowlistCopy(route.schema);
    const fast = (data: unknown): string => JSON.stringify(copy(data));
    if (!verify)
      return (data: unknown) => {
        try {
          return fast(data);
        } catch {
          return byZod(data);
        }
      };
    return (data: unknown) => {
      const expected = byZod(data);
      if (fast(data) !== expected)
        throw new Error(`${route.method} ${route.url}: the compiled response copy differs from zod's parse`);
      return expected;
    };
  };
}
