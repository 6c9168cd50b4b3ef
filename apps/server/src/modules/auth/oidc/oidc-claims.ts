/**
 * Reads user fields out of ID-token and userinfo claims the way Semaphore's configuration expresses
 * them: a claim name, dotted paths into nested claims (`realm_access.roles`), `a|b` alternatives
 * (first non-empty wins), or a template such as `{{ .given_name }} {{ .family_name }}`.
 */
export type Claims = Record<string, unknown>;

function readPath(claims: Claims, path: string): unknown {
  let value: unknown = claims;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

const TEMPLATE_FIELD = /\{\{\s*\.([\w.-]+)\s*\}\}/g;

export function readClaim(claims: Claims, spec: string): string {
  if (spec.includes('{{'))
    return spec.replace(TEMPLATE_FIELD, (_match, path: string) => asText(readPath(claims, path))).trim();
  for (const alternative of spec.split('|')) {
    const text = asText(readPath(claims, alternative.trim())).trim();
    if (text) return text;
  }
  return '';
}

/** Group claims come as a list, or as one string when the user is in a single group. */
export function readGroups(claims: Claims, spec: string): string[] {
  for (const alternative of spec.split('|')) {
    const value = readPath(claims, alternative.trim());
    if (Array.isArray(value)) return value.map(asText).filter((g) => g !== '');
    const single = asText(value).trim();
    if (single) return [single];
  }
  return [];
}
