/**
 * A YAML double-quoted scalar that every YAML reader takes back as `text`: printable ASCII as it is,
 * everything else escaped by code point (\u, or \U past the first plane, which PyYAML does not pair
 * from surrogates), a lone surrogate as U+FFFD.
 */
function quoted(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code >= 0x20 && code < 0x7f) out += char;
    else if (code >= 0xd800 && code <= 0xdfff) out += '\\ufffd';
    else if (code > 0xffff) out += `\\U${code.toString(16).padStart(8, '0')}`;
    else out += `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

function unsafeValue(value: unknown, depth: number): string {
  if (typeof value === 'string') return `!unsafe ${quoted(value)}`;
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === null || value === undefined || typeof value !== 'object' || depth > 64) return 'null';
  if (Array.isArray(value)) return `[${value.map((item: unknown) => unsafeValue(item, depth + 1)).join(', ')}]`;
  const entries = Object.entries(value).map(([key, item]) => `${quoted(key)}: ${unsafeValue(item, depth + 1)}`);
  return `{${entries.join(', ')}}`;
}

/**
 * Variables as a YAML document in which every string is tagged `!unsafe`: Ansible takes them as data
 * and never renders them, so a `{{ lookup('pipe', …) }}` in a task's message or a user's name is text,
 * not a command run on the controller.
 */
export function toUnsafeYaml(variables: Record<string, unknown>): string {
  return `${unsafeValue(variables, 0)}\n`;
}
