import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderConfigReference } from '../src/config-reference.ts';
import { CONFIG_KEYS } from '../src/config.ts';

describe('the configuration reference', () => {
  it('docs/configuration.md is the one made from the schema (npm run docs:config)', () => {
    const file = readFileSync(path.resolve(import.meta.dirname, '../../../docs/configuration.md'), 'utf8');
    expect(file, 'docs/configuration.md is out of date: run npm run docs:config').toBe(renderConfigReference());
  });

  it('names every setting with its variable', () => {
    const reference = renderConfigReference();
    for (const key of CONFIG_KEYS) expect(reference).toContain(`| \`GANTRY_${key.toUpperCase()}\` | \`${key}\` |`);
  });
});
