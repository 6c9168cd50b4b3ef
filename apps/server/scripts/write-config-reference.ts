import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderConfigReference } from '../src/config-reference.ts';

const file = path.resolve(import.meta.dirname, '../../../docs/configuration.md');
writeFileSync(file, renderConfigReference());
console.log(`Wrote ${file}`);
