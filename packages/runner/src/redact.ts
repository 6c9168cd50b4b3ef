export const REDACTED = '********';

/** Secrets shorter than this are not redacted: masking "a" or "1" would garble every line. */
const MIN_SECRET_LENGTH = 4;

/** A base64 run cut out of a longer encoding ("login:password") shorter than this would hit unrelated base64 text. */
const MIN_BASE64_CORE_LENGTH = 8;

/**
 * One way of writing a piece of a secret: a regular-expression source and the longest text it can
 * match. Alternatives inside one form always differ in their first characters (or are a prefix-free
 * choice of hex-digit case), so matching a form never backtracks more than a character: a line of
 * hostile output cannot make redaction slow.
 */
interface Form {
  source: string;
  length: number;
  /** The one text the form matches, when it has no alternatives. */
  text?: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function literal(text: string): Form {
  return { source: escapeRegExp(text), length: text.length, text };
}

function oneOf(...forms: Form[]): Form {
  const unique = [...new Map(forms.map((form) => [form.source, form])).values()].sort((a, b) => b.length - a.length);
  if (unique.length === 1 && unique[0]) return unique[0];
  return {
    source: `(?:${unique.map((form) => form.source).join('|')})`,
    length: Math.max(...unique.map((form) => form.length)),
  };
}

function sequence(forms: Form[]): Form {
  const source = forms.map((form) => form.source).join('');
  const length = forms.reduce((sum, form) => sum + form.length, 0);
  return forms.every((form) => form.text !== undefined)
    ? { source, length, text: forms.map((form) => form.text).join('') }
    : { source, length };
}

/** `prefix` and the value in hex, either case: tools disagree (Python quote prints %C3, json.dumps \u00e9). */
function hex(prefix: string, value: number, width: number): Form {
  const digits = value.toString(16).padStart(width, '0');
  if (!/[a-f]/.test(digits)) return literal(prefix + digits);
  const source = [...digits]
    .map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit))
    .join('');
  return { source: escapeRegExp(prefix) + source, length: prefix.length + width };
}

function octal(value: number): Form {
  return literal(`\\${value.toString(8).padStart(3, '0')}`);
}

function utf8Bytes(char: string): number[] {
  return [...Buffer.from(char, 'utf8')];
}

function utf16Units(char: string): number[] {
  return Array.from({ length: char.length }, (_, i) => char.charCodeAt(i));
}

function isAlphanumeric(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** JSON.stringify, Python json.dumps (ensure_ascii on or off), PHP's `\/`, Go's HTML-safe `\u003c`. */
function jsonForm(char: string, code: number): Form {
  const short: Record<string, string> = {
    '"': '\\"',
    '\\': '\\\\',
    '\b': '\\b',
    '\f': '\\f',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
  };
  const escaped = short[char];
  if (escaped) return literal(escaped);
  if (char === '/') return oneOf(literal('/'), literal('\\/'));
  const unicode = sequence(utf16Units(char).map((unit) => hex('\\u', unit, 4)));
  if (code < 0x20) return unicode;
  if (code >= 0x7f || char === '<' || char === '>' || char === '&') return oneOf(literal(char), unicode);
  return literal(char);
}

/** JSON of a JSON string, as when a to_json result is printed in JSON again (ansible's debug of "{{ x | to_json }}"). */
function jsonTwiceForm(char: string, code: number): Form {
  const once = JSON.stringify(char).slice(1, -1);
  const asciiOnce =
    code >= 0x7f
      ? utf16Units(char)
          .map((unit) => `\\u${unit.toString(16).padStart(4, '0')}`)
          .join('')
      : once;
  return oneOf(...[once, asciiOnce].map((text) => literal(JSON.stringify(text).slice(1, -1))));
}

const C_SHORT_ESCAPES: Record<number, string> = { 7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r', 27: 'E' };

/**
 * Backslash escapes of C-like quoting: Python repr() and ascii() of str and of its UTF-8 bytes,
 * bash's $'...' (printf %q, set -x and declare -p of values with control characters; octal bytes
 * outside a UTF-8 locale).
 */
function backslashForm(char: string, code: number): Form {
  if (char === '\\') return literal('\\\\');
  if (char === "'" || char === '"') return oneOf(literal(char), literal(`\\${char}`));
  if (code < 0x20 || code === 0x7f) {
    const short = C_SHORT_ESCAPES[code];
    return oneOf(
      hex('\\x', code, 2),
      octal(code),
      ...(short ? [literal(`\\${short}`)] : []),
      ...(code === 27 ? [literal('\\e')] : []),
    );
  }
  if (code < 0x80) return literal(char);
  const bytes = utf8Bytes(char);
  const pythonAscii = code < 0x100 ? hex('\\x', code, 2) : code < 0x10000 ? hex('\\u', code, 4) : hex('\\U', code, 8);
  return oneOf(
    literal(char),
    pythonAscii,
    sequence(bytes.map((byte) => hex('\\x', byte, 2))),
    sequence(bytes.map(octal)),
  );
}

/** Backslash before shell-special characters: bash printf %q, and the "..." of declare -p. */
function shellBackslashForm(char: string, code: number): Form {
  if (char === '\\') return literal('\\\\');
  if (code >= 0x20 && code < 0x7f && !isAlphanumeric(code)) return oneOf(literal(char), literal(`\\${char}`));
  return literal(char);
}

/** A ' inside '...' as bash set -x and ${var@Q} write it ('\'') and as Python's shlex.quote does ('"'"'). */
function shellSingleQuoteForm(char: string): Form {
  return char === "'" ? oneOf(literal("'\\''"), literal(`'"'"'`)) : literal(char);
}

/** Percent-encoding of any safe set (encodeURIComponent, urllib quote, form encoding with + for space). */
function urlForm(char: string, code: number): Form {
  if (isAlphanumeric(code)) return literal(char);
  if (char === '%') return hex('%', code, 2);
  if (char === ' ') return oneOf(literal('+'), hex('%', code, 2));
  if (code > 0x20 && code < 0x7f) return oneOf(literal(char), hex('%', code, 2));
  return sequence(utf8Bytes(char).map((byte) => hex('%', byte, 2)));
}

const CHARACTER_ENCODINGS: ((char: string, code: number) => Form)[] = [
  (char) => literal(char),
  jsonForm,
  jsonTwiceForm,
  backslashForm,
  shellBackslashForm,
  shellSingleQuoteForm,
  urlForm,
];

/**
 * The base64 of the value on its own (standard and URL-safe, padded or not), and the characters that
 * stay the same whatever bytes surround it, at each of the three byte alignments ("login:password"
 * in a Basic authorization header, a key inside a larger encoded file).
 */
function base64Texts(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const padded = bytes.toString('base64');
  const urlSafe = padded.replace(/\+/g, '-').replace(/\//g, '_');
  const texts = [padded, padded.replace(/=+$/, ''), urlSafe, urlSafe.replace(/=+$/, '')];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // Characters mixing bits of a neighbouring byte are left out: before the value, and after its last whole group.
    const start = [0, 2, 3][offset] ?? 0;
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    const core = encoded.slice(start, end);
    if (core.length >= MIN_BASE64_CORE_LENGTH) texts.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return texts;
}

/** The pieces a secret is looked for as: the value, and each line of a multi-line value (output arrives line by line). */
function listPieces(secret: string): string[] {
  return [secret, ...secret.split(/\r?\n/)]
    .map((piece) => piece.trim())
    .filter((piece) => piece.length >= MIN_SECRET_LENGTH);
}

/**
 * Anchors: a piece's letters-and-digits run shared by all its forms when it has one this long;
 * else each form's own literal run, shorter (strong random passwords rarely have four letters in a
 * row), which sends more lines to the full patterns but is still far cheaper than trying them all.
 */
const SHARED_ANCHOR_LENGTH = 4;
const FORM_ANCHOR_LENGTH = 2;
const MAX_ANCHOR_LENGTH = 16;

/** Stands for a character that is not the same in every form, when looking for the run shared by all. */
const ANY_OTHER: Form = { source: '', length: 0 };

/** The longest run of parts without alternatives (the first one, cut at MAX_ANCHOR_LENGTH): a text every match contains. */
function findAnchor(parts: Form[], minLength: number): string {
  let best = '';
  let run = '';
  for (const part of parts) {
    run = part.text === undefined ? '' : (run + part.text).slice(0, MAX_ANCHOR_LENGTH);
    if (run.length > best.length) best = run;
  }
  return best.length >= minLength ? best : '';
}

/** The forms sharing one anchor ('' for forms without one, tried on every line). */
interface Matcher {
  anchor: string;
  pattern: RegExp;
}

export interface Redactor {
  /** Replaces every known secret in the line, in any of the encodings it may be printed in, with ********. */
  (line: string): string;
  /**
   * For output that more text may continue (a long line cut in pieces): the redacted part that no
   * later text can change, and the raw rest, to be handed back with what follows.
   */
  settle(text: string): { settled: string; rest: string };
}

/** Every match, overlapping ones too: a secret repeated into itself ("abab" in "ababab") is masked whole. */
function collectMatches(pattern: RegExp, text: string, spans: [number, number][]): void {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    spans.push([match.index, match.index + match[0].length]);
    pattern.lastIndex = match.index + 1;
  }
}

/** The text up to `end` with each span masked; overlapping spans become one mask. */
function mask(text: string, spans: [number, number][], end: number): string {
  let out = '';
  let done = 0;
  for (const [start, stop] of spans) {
    if (stop <= done) continue;
    out += text.slice(done, Math.max(done, start)) + (start >= done ? REDACTED : '');
    done = stop;
  }
  return out + text.slice(done, end);
}

/**
 * Builds the matchers for all secrets of a task once; every line of its output goes through them.
 * The length rule applies to the raw value; its encodings are masked however long. A line is first
 * searched for the anchors only (one small pattern): most lines stop there, and only the forms whose
 * anchor is in the line run their full patterns.
 */
export function createRedactor(secrets: Iterable<string>): Redactor {
  const groups = new Map<string, Map<string, Form>>();
  const add = (anchor: string, form: Form) => {
    const group = groups.get(anchor) ?? new Map<string, Form>();
    groups.set(anchor, group.set(form.source, form));
  };
  for (const secret of secrets) {
    const pieces = new Set(listPieces(secret));
    if (pieces.size === 0) continue;
    for (const piece of pieces) {
      const chars = [...piece].map((char) => ({ char, code: char.codePointAt(0) ?? 0 }));
      // ASCII letters and digits are themselves in every encoding: one anchor can serve all forms of the piece.
      const shared = findAnchor(
        chars.map(({ char, code }) => (isAlphanumeric(code) ? literal(char) : ANY_OTHER)),
        SHARED_ANCHOR_LENGTH,
      );
      for (const encode of CHARACTER_ENCODINGS) {
        const parts = chars.map(({ char, code }) => encode(char, code));
        // Output arrives line by line: a form that keeps a newline as it is cannot match.
        if (parts.every((part) => part.text !== '\n'))
          add(shared || findAnchor(parts, FORM_ANCHOR_LENGTH), sequence(parts));
      }
    }
    // Encoded as a whole, surrounding whitespace (a key's final newline) changes every character.
    for (const value of new Set([secret, secret.trim()]))
      for (const text of base64Texts(value)) add(findAnchor([literal(text)], SHARED_ANCHOR_LENGTH), literal(text));
  }
  if (groups.size === 0)
    return Object.assign((line: string) => line, { settle: (text: string) => ({ settled: text, rest: '' }) });

  let longest = 0;
  const matchers: Matcher[] = [...groups].map(([anchor, forms]) => {
    const ordered = [...forms.values()].sort((a, b) => b.length - a.length);
    longest = Math.max(longest, ordered[0]?.length ?? 0);
    return { anchor, pattern: new RegExp(ordered.map((form) => form.source).join('|'), 'g') };
  });
  const anchored = matchers.filter((m) => m.anchor !== '');
  // Only tells whether any anchor is there; which ones is up to includes(), as anchors may overlap.
  const anchorPattern = new RegExp(anchored.map((m) => escapeRegExp(m.anchor)).join('|'));
  const unanchored = matchers.find((m) => m.anchor === '');

  /** Where any form of any secret is in the text, by start. */
  function findSpans(text: string): [number, number][] {
    const spans: [number, number][] = [];
    if (unanchored) collectMatches(unanchored.pattern, text, spans);
    if (anchored.length > 0 && anchorPattern.test(text))
      for (const { anchor, pattern } of anchored) if (text.includes(anchor)) collectMatches(pattern, text, spans);
    return spans.length > 1 ? spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]) : spans;
  }

  function redact(line: string): string {
    const spans = findSpans(line);
    return spans.length === 0 ? line : mask(line, spans, line.length);
  }

  function settle(text: string): { settled: string; rest: string } {
    // A match starting before here is complete: even the longest form fits in what is there.
    let boundary = Math.max(0, text.length - longest + 1);
    const settledSpans: [number, number][] = [];
    for (const span of findSpans(text)) {
      if (span[0] >= boundary) break;
      settledSpans.push(span);
      boundary = Math.max(boundary, span[1]);
    }
    return { settled: mask(text, settledSpans, boundary), rest: text.slice(boundary) };
  }

  return Object.assign(redact, { settle });
}
