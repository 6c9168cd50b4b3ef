import Fastify from 'fastify';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { allowlistCopy, createResponseSerializer } from '../src/http/response-serializer.ts';

const Key = z.object({
  id: z.number(),
  name: z.string(),
  type: z.enum(['ssh', 'login_password', 'none']),
  owner: z.literal('user').optional(),
  note: z.string().nullable(),
});
const Page = z.object({ items: z.array(Key), next: z.number().nullable().optional(), tag: z.unknown() });

const secretRow = {
  id: 7,
  name: 'deploy',
  type: 'ssh',
  note: null,
  secret: 'BEGIN PRIVATE KEY',
  password_hash: '$argon2id$...',
};

describe('the compiled response copy', () => {
  it('copies only the keys the schema names, nested in arrays, nullable and optional fields', () => {
    const page = { items: [secretRow, { ...secretRow, id: 8, owner: 'user', note: 'x' }], extra: 'secret', tag: 3 };
    const copied = allowlistCopy(Page)(page);
    expect(copied).toEqual({
      items: [
        { id: 7, name: 'deploy', type: 'ssh', note: null },
        { id: 8, name: 'deploy', type: 'ssh', owner: 'user', note: 'x' },
      ],
      tag: 3,
    });
    expect(JSON.stringify(copied)).toBe(JSON.stringify(z.parse(Page, page)));
    expect(JSON.stringify(copied)).not.toMatch(/secret|PRIVATE|argon/i);
  });

  it('copies every entry of a record keyed by any string, each through the value schema', () => {
    const Counts = z.array(z.object({ date: z.string(), count_by_status: z.record(z.string(), z.number()) }));
    const value = [{ date: '2026-11-24', count_by_status: { success: 2, failed: 0 }, secret: 'x' }];
    expect(allowlistCopy(Counts)(value)).toEqual([{ date: '2026-11-24', count_by_status: { success: 2, failed: 0 } }]);
    expect(() => allowlistCopy(Counts)([{ date: 'd', count_by_status: { success: 'two' } }])).toThrow();
    const Nested = z.record(z.string(), z.object({ id: z.number() }));
    expect(allowlistCopy(Nested)({ a: { id: 1, password: 'p' } })).toEqual({ a: { id: 1 } });
  });

  it('leaves unions, transforms, defaults, strict objects and rewriting checks to zod, with its output', () => {
    const Mixed = z.object({
      either: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]),
      upper: z.string().transform((s) => s.toUpperCase()),
      trimmed: z.string().trim(),
      withDefault: z.number().default(5),
      strict: z.strictObject({ x: z.number() }).optional(),
    });
    const value = { either: { b: 2, hidden: 'no' }, upper: 'abc', trimmed: '  t ', secret: 'no' };
    expect(allowlistCopy(Mixed)(value)).toEqual({ either: { b: 2 }, upper: 'ABC', trimmed: 't', withDefault: 5 });
    expect(() => allowlistCopy(Mixed)({ ...value, strict: { x: 1, y: 2 } })).toThrow();
  });

  it('refuses what zod refuses: a missing field, a value of the wrong kind, a number that is not finite', () => {
    const copy = allowlistCopy(Key);
    expect(() => copy({ ...secretRow, name: undefined })).toThrow();
    expect(() => copy({ ...secretRow, type: 'other' })).toThrow();
    expect(() => copy({ ...secretRow, id: Number.NaN })).toThrow();
    expect(() => copy([secretRow])).toThrow();
  });

  it('handles a schema that refers to itself', () => {
    interface Node {
      name: string;
      children: Node[];
    }
    const TreeNode: z.ZodType<Node> = z.object({
      name: z.string(),
      get children() {
        return z.array(TreeNode);
      },
    });
    const tree = { name: 'a', secret: 1, children: [{ name: 'b', secret: 2, children: [] }] };
    expect(allowlistCopy(TreeNode)(tree)).toEqual({ name: 'a', children: [{ name: 'b', children: [] }] });
  });
});

describe('responses through the serializer', () => {
  async function serve(verify: boolean, body: unknown) {
    const app = Fastify();
    app.setSerializerCompiler(createResponseSerializer({ verify }));
    app.get('/keys', { schema: { response: { 200: Page } } }, () => body);
    const response = await app.inject({ method: 'GET', url: '/keys' });
    await app.close();
    return response;
  }

  it.each([false, true])('never sends a key the schema does not name (verify: %s)', async (verify) => {
    const response = await serve(verify, { items: [secretRow], secret: 'x', tag: null });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"items":[{"id":7,"name":"deploy","type":"ssh","note":null}],"tag":null}');
  });

  it.each([false, true])(
    'answers a response that breaks its schema with an error, not the data (verify: %s)',
    async (verify) => {
      const response = await serve(verify, { items: [{ ...secretRow, id: 'seven' }], tag: null });
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toMatch(/deploy|PRIVATE/);
    },
  );
});
