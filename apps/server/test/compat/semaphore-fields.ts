import { readFileSync } from 'node:fs';

type FieldTypes = Record<string, string>;

/** Response types of Semaphore's API documentation with the fields Semaphore sends (see the file's $comment). */
const SEMAPHORE_FIELDS = JSON.parse(
  readFileSync(new URL('./fixtures/semaphore-response-fields.json', import.meta.url), 'utf8'),
) as Record<string, FieldTypes>;

export const SEMAPHORE_TYPE_NAMES = Object.keys(SEMAPHORE_FIELDS).filter((name) => !name.startsWith('$'));

function jsonTypeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

/**
 * The fields of a Semaphore response type that a body gets wrong, as "Type.field: problem": of another
 * JSON type than Semaphore sends (a go-swagger client fails to decode those), or null where Semaphore never
 * sends null; with `requireAll`, also every field that is absent.
 */
export function explainFieldMismatches(
  typeName: string,
  body: unknown,
  { requireAll }: { requireAll: boolean },
): string[] {
  const fields = SEMAPHORE_FIELDS[typeName];
  if (!fields) throw new Error(`No Semaphore fields for ${typeName}`);
  const object = body as Record<string, unknown>;
  return Object.entries(fields).flatMap(([field, declared]) => {
    if (!(field in object)) return requireAll ? [`${typeName}.${field}: missing`] : [];
    const nullable = declared.endsWith('?');
    const type = declared.replace(/\?$/, '');
    const value = object[field];
    if (value === null) return nullable ? [] : [`${typeName}.${field}: null, Semaphore sends a ${type}`];
    return jsonTypeOf(value) === type ? [] : [`${typeName}.${field}: ${jsonTypeOf(value)}, Semaphore sends a ${type}`];
  });
}
