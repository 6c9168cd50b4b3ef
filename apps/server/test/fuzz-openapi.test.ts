import { MAX_INTEGER } from '@gantry/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  fillPath,
  listOperations,
  seedProject,
  seededParams,
  snapshotProject,
  type Operation,
  type ProjectIds,
} from './openapi-operations.ts';
import { createRandom } from './seeded-random.ts';
import { addMember } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

type Random = ReturnType<typeof createRandom>;

/** Numbers JSON cannot carry exactly (or at all); they are spliced into the body text as written. */
const RAW_NUMBERS = ['1e309', '9007199254740993', '-1e309', '1.5e300'];
const rawToken = (text: string) => `__raw_number_${text}__`;

const HOSTILE_PATH_VALUES = [
  '2147483648',
  '-1',
  '0',
  '1e309',
  '9007199254740993',
  '99999999999999999999',
  '1.5',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '%E5%90%8D%F0%9F%9A%80',
  'x'.repeat(2000),
  '%20%201',
  '0x10',
];
const HOSTILE_QUERY_VALUES = [
  '2147483648',
  '-1',
  '0',
  '1e309',
  '9007199254740993',
  'abc',
  '%00',
  '../../etc/passwd',
  'x'.repeat(5000),
  '%F0%9F%9A%80',
  '',
];
const HOSTILE_VALUES: unknown[] = [
  2147483648,
  -1,
  0,
  -2147483649,
  rawToken('1e309'),
  rawToken('9007199254740993'),
  rawToken('-1e309'),
  1.5,
  'x'.repeat(70_000),
  'Проект 项目 🚀 \u202e\ufeff',
  'nul\u0000byte',
  '../../../../etc/passwd',
  '/etc/shadow',
  '$(touch /tmp/gantry-fuzz-pwned)',
  '',
  '   ',
  true,
  null,
  [],
  [1, 'a', null],
  {},
  { $ne: 1 },
  { __proto__: { admin: true } },
  '2147483648',
];

/** Values aimed at a field of the given type: past its range for numbers, oversized or poisoned for text. */
function targetedValues(schema: JsonSchema): unknown[] {
  const type = schema.type ?? schema.anyOf?.find((s) => s.type !== 'null')?.type;
  if (type === 'integer' || type === 'number')
    return [2147483648, -2147483649, rawToken('1e309'), rawToken('9007199254740993'), '1', 1.5];
  if (type === 'string') return ['x'.repeat(70_000), 'nul\u0000byte', '../../../../etc/passwd', 7, { text: 'x' }];
  if (type === 'array') return [[2147483648], ['\u0000'], 'not an array', Array.from({ length: 2000 }, () => 'x')];
  if (type === 'object') return [[], 'text', { nested: { deeper: { deepest: [2147483648] } } }];
  return [2147483648, 'x'.repeat(10_000), null, []];
}

interface JsonSchema {
  type?: string;
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  additionalProperties?: JsonSchema | boolean;
}

/** A plausible value of the schema, so that one hostile field at a time reaches the deeper rules. */
function plausibleValue(schema: JsonSchema | undefined, name: string, ids: ProjectIds): unknown {
  if (!schema) return null;
  const variant = schema.anyOf?.find((s) => s.type !== 'null') ?? schema.oneOf?.[0];
  if (variant) return plausibleValue(variant, name, ids);
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  switch (schema.type) {
    case 'integer':
    case 'number': {
      const seeded = (ids as unknown as Record<string, number>)[
        name.replace(/_id$/, 'Id').replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
      ];
      return seeded ?? schema.minimum ?? 1;
    }
    case 'boolean':
      return false;
    case 'string':
      return `fuzz-${name}`;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, plausibleValue(value, key, ids)]),
      );
    default:
      return null;
  }
}

function bodyText(body: unknown): string {
  let text = JSON.stringify(body);
  for (const raw of RAW_NUMBERS) text = text.replaceAll(JSON.stringify(rawToken(raw)), raw);
  return text;
}

const deeplyNested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

interface FuzzRequest {
  method: string;
  url: string;
  payload?: string;
  contentType?: string;
  label: string;
}

interface OpenApiBody {
  content?: Record<string, { schema?: JsonSchema }>;
}

/** A bounded, seeded set of hostile requests for one operation. */
function generateRequests(
  operation: Operation,
  bodySchema: JsonSchema | undefined,
  ids: ProjectIds,
  random: Random,
): FuzzRequest[] {
  const valid: Record<string, string | number> = {
    ...seededParams(operation, ids),
    appId: 'python',
    tokenId: 'fuzz-token',
    totpId: 1,
    provider: 'none',
  };
  const requests: FuzzRequest[] = [];
  const base = fillPath(operation, valid, '1');
  const plausible = operation.hasBody ? plausibleValue(bodySchema, '', ids) : undefined;
  const withBody = (label: string, url: string): FuzzRequest => ({
    method: operation.method,
    url,
    label,
    ...(operation.hasBody ? { payload: bodyText(plausible), contentType: 'application/json' } : {}),
  });

  for (const param of operation.pathParams) {
    for (const value of random.sample(HOSTILE_PATH_VALUES, 3)) {
      const url = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
        name === param ? value : encodeURIComponent(String(valid[name] ?? '1')),
      );
      requests.push(withBody(`path ${param}=${value.slice(0, 40)}`, url));
    }
  }
  for (const param of operation.queryParams) {
    for (const value of random.sample(HOSTILE_QUERY_VALUES, 2))
      requests.push(withBody(`query ${param}=${value.slice(0, 40)}`, `${base}?${param}=${value}`));
    requests.push(withBody(`query ${param} twice`, `${base}?${param}=1&${param}=2`));
  }
  if (operation.hasBody) {
    const properties = Object.entries(bodySchema?.properties ?? {});
    const mutate = (property: string, value: unknown) => {
      const body = { ...(plausible as Record<string, unknown>), [property]: value };
      requests.push({
        method: operation.method,
        url: base,
        payload: bodyText(body),
        contentType: 'application/json',
        label: `body ${property}=${JSON.stringify(value)?.slice(0, 40)}`,
      });
    };
    // Every field gets the value most likely to break its own type, and a few fields anything at all.
    for (const [property, schema] of properties) mutate(property, random.pick(targetedValues(schema)));
    for (const [property] of random.sample(properties, 8)) mutate(property, random.pick(HOSTILE_VALUES));
    const wholeBodies: [string, string, string][] = [
      ['array body', '[1,2,3]', 'application/json'],
      ['string body', '"text"', 'application/json'],
      ['number body', '2147483648', 'application/json'],
      ['broken json', '{"name": ', 'application/json'],
      ['deep nesting', deeplyNested(random.pick([200, 5000, 20000])), 'application/json'],
      ['deep array', `${'['.repeat(3000)}${']'.repeat(3000)}`, 'application/json'],
      ['plain text', 'name=x', 'text/plain'],
      ['form', 'name=x&template_id=2147483648', 'application/x-www-form-urlencoded'],
      ['xml', '<a>1</a>', 'application/xml'],
      ['json with nul', '{"name":"a\\u0000b"}', 'application/json'],
      ['latin1 json', bodyText(plausible), 'application/json; charset=latin1'],
    ];
    for (const [label, payload, contentType] of random.sample(wholeBodies, 5))
      requests.push({ method: operation.method, url: base, payload, contentType, label });
  }
  return requests;
}

/** Operations that would end the run's fixture (the admin's session, the target project) or start long work. */
const SKIPPED = new Set([
  'POST /api/auth/logout',
  'DELETE /api/project/{projectId}',
  'DELETE /api/project/{projectId}/me',
  'POST /api/project/{projectId}/tasks',
]);

const dialects = await listTestDialects();

describe.each(dialects)('OpenAPI fuzzing on %s', (dialect) => {
  let operations: Operation[];
  let bodies: Map<string, JsonSchema | undefined>;
  let target: ProjectIds;
  let other: ProjectIds;
  let guestCookie: string;
  let document: {
    paths: Record<
      string,
      Record<string, { parameters?: { in: string; schema?: JsonSchema }[]; requestBody?: OpenApiBody }>
    >;
  };

  const t = useTestApp(dialect);
  beforeAll(async () => {
    const guest = await t.createUser('fuzz-guest');
    guestCookie = guest.cookie;
    target = await seedProject(t, 'Fuzz target');
    await addMember(t, `/api/project/${target.projectId}`, guest.id, 'guest');
    other = await seedProject(t, 'Fuzz other');
    document = (await t.request('GET', '/api/openapi.json')).body as typeof document;
    operations = (await listOperations(t)).filter((o) => !SKIPPED.has(`${o.method} ${o.path}`));
    // Deletions last, so that the other operations still meet the seeded resources.
    operations.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    bodies = new Map(
      operations.map((o) => [
        `${o.method} ${o.path}`,
        document.paths[o.path]?.[o.method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema,
      ]),
    );
  }, 60_000);

  it('bounds every integer the API accepts by the range of the integer columns', () => {
    const unbounded: string[] = [];
    const visit = (schema: JsonSchema | undefined, where: string) => {
      if (!schema) return;
      if (
        schema.type === 'integer' &&
        !(
          schema.maximum !== undefined &&
          schema.maximum <= MAX_INTEGER &&
          schema.minimum !== undefined &&
          schema.minimum >= -MAX_INTEGER
        )
      ) {
        unbounded.push(where);
      }
      for (const [key, value] of Object.entries(schema.properties ?? {})) visit(value, `${where}.${key}`);
      for (const value of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) visit(value, where);
      if (schema.items) visit(schema.items, `${where}[]`);
      if (typeof schema.additionalProperties === 'object') visit(schema.additionalProperties, `${where}{}`);
    };
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const parameter of operation.parameters ?? [])
          visit(parameter.schema, `${method} ${path} ${parameter.in}`);
        visit(operation.requestBody?.content?.['application/json']?.schema, `${method} ${path} body`);
      }
    }
    expect(unbounded).toEqual([]);
  });

  it('refuses integers past the integer columns in paths, bodies and queries with a 4xx naming the problem', async () => {
    const big = 2147483648;
    const base = `/api/project/${target.projectId}`;
    const cases: [string, string, unknown, number, string][] = [
      ['GET', `/api/project/${big}`, undefined, 400, 'Invalid project ID'],
      ['GET', `/api/project/${big}/templates/${target.templateId}/stats`, undefined, 400, 'Invalid project ID'],
      ['GET', `${base}/keys/${big}`, undefined, 400, 'keyId must be a positive integer'],
      ['GET', `${base}/templates/${big}/tasks/last`, undefined, 400, 'templateId must be a positive integer'],
      [
        'POST',
        `${base}/schedules`,
        { name: 's', template_id: big, cron_format: '* * * * *' },
        400,
        'Template not found',
      ],
      ['POST', `${base}/users`, { user_id: big, role: 'guest' }, 400, 'User not found'],
      [
        'POST',
        `${base}/templates`,
        { name: 't', app: 'bash', inventory_id: big },
        400,
        'inventory_id must be a positive integer',
      ],
      ['POST', `${base}/views/positions`, { [big]: 1 }, 400, '2147483648: Invalid key'],
      ['GET', `${base}/inventory?template_id=${big}`, undefined, 400, 'template_id must be a positive integer'],
      ['GET', `${base}/templates/${target.templateId}/stats?user_id=${big}`, undefined, 400, 'Invalid user_id'],
      [
        'GET',
        `${base}/tasks/${target.taskId}/output?offset=${big}`,
        undefined,
        400,
        'offset must be an integer from 0 to 2147483647',
      ],
      [
        'GET',
        `${base}/inventory/${target.inventoryId}/terraform/states?offset=9007199254740993`,
        undefined,
        400,
        'offset must be an integer',
      ],
    ];
    for (const [method, url, body, status, error] of cases) {
      const response = await t.request(method, url, { as: t.adminCookie, ...(body === undefined ? {} : { body }) });
      expect({ url, status: response.status, error: (response.body as { error?: string }).error }).toMatchObject({
        url,
        status,
        error: expect.stringContaining(error),
      });
    }
  });

  it('answers hostile input to every operation without a 5xx, as admin, guest and anonymous, and leaves other projects alone', async () => {
    const before = await snapshotProject(t, other.projectId);
    const random = createRandom(0x6a6e7472);
    const failures: string[] = [];
    let sent = 0;
    for (const operation of operations) {
      const requests = generateRequests(operation, bodies.get(`${operation.method} ${operation.path}`), target, random);
      const callers: [string, string | undefined, FuzzRequest[]][] = [
        ['admin', t.adminCookie, requests],
        ['guest', guestCookie, random.sample(requests, 3)],
        ['anonymous', undefined, random.sample(requests, 2)],
      ];
      for (const [caller, cookie, chosen] of callers) {
        for (const request of chosen) {
          const headers: Record<string, string> = {};
          if (cookie) headers.cookie = cookie;
          if (request.contentType) headers['content-type'] = request.contentType;
          const response = await t.app.inject({
            method: request.method as 'GET',
            url: request.url,
            headers,
            ...(request.payload !== undefined ? { payload: request.payload } : {}),
          });
          sent += 1;
          if (response.statusCode >= 500) {
            failures.push(
              `${operation.method} ${operation.path} as ${caller}, ${request.label}: ${response.statusCode} ${response.body.slice(0, 160)}`,
            );
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
    expect(await snapshotProject(t, other.projectId)).toEqual(before);
  }, 120_000);
});
