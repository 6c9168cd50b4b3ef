import { parseJsonObject, type Environment, type EnvironmentSecretChange } from '@gantry/contract';

/** One row of a variables table. `raw` values (numbers, booleans, null) go back as JSON, not as strings. */
export interface VariableRow {
  name: string;
  value: string;
  raw: boolean;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  return text.trim() === '' ? {} : parseJsonObject(text);
}

/**
 * The rows of a JSON object of variables, or null when it cannot be shown as a table: invalid JSON,
 * not an object, or a value that is itself an object or a list.
 */
export function toVariableRows(text: string): VariableRow[] | null {
  const object = parseObject(text);
  if (!object) return null;
  const rows: VariableRow[] = [];
  for (const [name, value] of Object.entries(object)) {
    if (typeof value === 'object' && value !== null) return null;
    rows.push(
      typeof value === 'string' ? { name, value, raw: false } : { name, value: JSON.stringify(value), raw: true },
    );
  }
  return rows;
}

/** The JSON text of table rows; rows without a name are left out, a later duplicate wins. */
export function fromVariableRows(rows: readonly VariableRow[]): string {
  const object: Record<string, unknown> = {};
  for (const row of rows) {
    const name = row.name.trim();
    if (!name) continue;
    object[name] = row.raw ? parseRaw(row.value) : row.value;
  }
  return JSON.stringify(object, null, 2);
}

function parseRaw(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? text : value;
  } catch {
    return text;
  }
}

/** A secret as the Secrets tab holds it: saved ones have an id; `value` empty means "leave as is". */
export interface SecretRow {
  key: string;
  id?: number;
  name: string;
  type: 'var' | 'env';
  value: string;
  deleted: boolean;
}

export function toSecretRows(environment?: Environment): SecretRow[] {
  return (environment?.secrets ?? []).map((secret) => ({
    key: `saved-${secret.id}`,
    id: secret.id,
    name: secret.name,
    type: secret.type,
    value: '',
    deleted: false,
  }));
}

/** What the server must do with the secrets: create new ones, update edited ones, delete removed ones; the rest is not sent. */
export function buildSecretChanges(rows: readonly SecretRow[]): EnvironmentSecretChange[] {
  const changes: EnvironmentSecretChange[] = [];
  for (const row of rows) {
    if (row.id === undefined) {
      if (!row.deleted) changes.push({ operation: 'create', type: row.type, name: row.name.trim(), secret: row.value });
    } else if (row.deleted) {
      changes.push({ operation: 'delete', id: row.id });
    } else if (row.value !== '') {
      changes.push({ operation: 'update', id: row.id, secret: row.value });
    }
  }
  return changes;
}
