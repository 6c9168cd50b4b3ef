/** A piece of a log line's text: plain, or an http(s) address to show as a link. */
export interface TextPart {
  text: string;
  href?: string;
}

// Stops at spaces, quotes and angle brackets, which never belong to an address printed in a log.
const ADDRESS = /\bhttps?:\/\/[^\s"'<>`]+/gi;
// Punctuation closing a sentence or a bracket around an address, not part of it.
const TRAILING = new Set(`.,;:!?'")]}`);

/** The address as a link target, or undefined when it is not a valid http(s) URL (no other scheme ever becomes a link). */
function toHref(candidate: string): string | undefined {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const OPENING: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

function count(text: string, char: string): number {
  let found = 0;
  for (const c of text) if (c === char) found++;
  return found;
}

/**
 * Keeps a closing bracket the address opened itself, as in a wiki link ending with `(disambiguation)`.
 * Linear in the address's length: a task's output may print thousands of brackets.
 */
function trimAddress(match: string): string {
  let end = match.length;
  while (end > 0 && TRAILING.has(match.charAt(end - 1))) end--;
  const address = match.slice(0, end);
  const rest = match.slice(end);
  // Brackets of each kind the address opened and did not close yet.
  const unclosed = new Map<string, number>();
  let kept = 0;
  for (const close of rest) {
    const open = OPENING[close];
    if (!open) break;
    const left = unclosed.get(close) ?? count(address, open) - count(address, close);
    if (left <= 0) break;
    unclosed.set(close, left - 1);
    kept++;
  }
  return address + rest.slice(0, kept);
}

/** Splits text into plain parts and http(s) links. */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  ADDRESS.lastIndex = 0;
  for (let match = ADDRESS.exec(text); match; match = ADDRESS.exec(text)) {
    const address = trimAddress(match[0]);
    const href = toHref(address);
    if (!href) continue;
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ text: address, href });
    last = match.index + address.length;
    ADDRESS.lastIndex = last;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
