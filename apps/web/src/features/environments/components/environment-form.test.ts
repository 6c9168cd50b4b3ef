import { describe, expect, it } from 'vitest';
import { EnvironmentBody } from '@gantry/contract';
import { savedEnvironment } from './environment-fixture.ts';
import { buildSecretChanges, fromVariableRows, toSecretRows, toVariableRows } from './environment-form.ts';

describe('variables table', () => {
  it('shows flat objects as rows and keeps numbers and booleans typed on the way back', () => {
    const rows = toVariableRows('{"region": "eu-west-1", "replicas": 3, "debug": false}');
    expect(rows).toEqual([
      { name: 'region', value: 'eu-west-1', raw: false },
      { name: 'replicas', value: '3', raw: true },
      { name: 'debug', value: 'false', raw: true },
    ]);
    const edited = rows?.map((row) => (row.name === 'replicas' ? { ...row, value: '5' } : row)) ?? [];
    expect(JSON.parse(fromVariableRows(edited))).toEqual({ region: 'eu-west-1', replicas: 5, debug: false });
  });

  it('cannot show objects, lists or invalid JSON as a table', () => {
    expect(toVariableRows('{"users": {"admin": true}}')).toBeNull();
    expect(toVariableRows('{"hosts": ["a", "b"]}')).toBeNull();
    expect(toVariableRows('[1, 2]')).toBeNull();
    expect(toVariableRows('{"a": ')).toBeNull();
  });

  it('reads empty text as no variables and drops rows without a name', () => {
    expect(toVariableRows('  ')).toEqual([]);
    expect(
      fromVariableRows([
        { name: ' ', value: 'x', raw: false },
        { name: ' PORT ', value: '8080', raw: false },
      ]),
    ).toBe('{\n  "PORT": "8080"\n}');
  });

  it('keeps a raw value that no longer parses as text', () => {
    expect(JSON.parse(fromVariableRows([{ name: 'n', value: '3 apples', raw: true }]))).toEqual({ n: '3 apples' });
  });
});

describe('secret changes', () => {
  const saved = toSecretRows(savedEnvironment);

  it('creates new secrets, updates edited ones, deletes removed ones and leaves untouched ones out', () => {
    const rows = [
      saved[0]!,
      { ...saved[1]!, value: 'new-token' },
      { ...saved[2]!, deleted: true },
      { key: 'n1', name: ' SLACK_HOOK ', type: 'env' as const, value: 'https://hooks', deleted: false },
      { key: 'n2', name: 'discarded', type: 'var' as const, value: 'x', deleted: true },
    ];
    const changes = buildSecretChanges(rows);
    expect(changes).toEqual([
      { operation: 'update', id: 11, secret: 'new-token' },
      { operation: 'delete', id: 12 },
      { operation: 'create', type: 'env', name: 'SLACK_HOOK', secret: 'https://hooks' },
    ]);
    expect(EnvironmentBody.safeParse({ name: 'prod', json: '{}', env: '{}', secrets: changes }).success).toBe(true);
  });

  it('sends nothing when no secret changed', () => {
    expect(buildSecretChanges(saved)).toEqual([]);
  });
});
