/** Far deeper than any JSON of ours, and shallow enough that neither parsing, storing nor walking it can hurt. */
export const MAX_JSON_DEPTH = 64;

export const nestedTooDeep = (label: string) => `${label} is nested more than ${MAX_JSON_DEPTH} levels deep`;

/**
 * Whether JSON text is nested deeper than MAX_JSON_DEPTH, found by counting brackets outside strings
 * without parsing: a body nested millions of levels deep costs JSON.parse seconds and this scan
 * milliseconds, and a value that deep overflows the stack of whatever walks it later (JSON.stringify,
 * a task's variables). Text that is not JSON at all is left for the parser to refuse.
 */
export function isJsonNestedTooDeep(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 0x22) {
      // Jump to the closing quote natively: a quote preceded by an odd number of backslashes is escaped.
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
      // An unterminated string is the parser's to report.
      if (end === -1) return false;
      i = end;
    } else if (char === 0x7b || char === 0x5b) {
      depth += 1;
      if (depth > MAX_JSON_DEPTH) return true;
    } else if (char === 0x7d || char === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

function isEscaped(text: string, quote: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes += 1;
  return backslashes % 2 === 1;
}
