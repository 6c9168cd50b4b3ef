/**
 * A small ANSI SGR parser for task logs: the 8 standard and 8 bright colours (foreground and
 * background), bold, dim, italic and underline. Other escape sequences (cursor moves, titles,
 * 256/true colours) are consumed and dropped, so they never show up as garbage.
 */

export interface AnsiStyle {
  /** 0-7 standard, 8-15 bright; null is the default colour. */
  fg: number | null;
  bg: number | null;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
}

export interface AnsiSegment extends AnsiStyle {
  text: string;
}

const PLAIN: AnsiStyle = { fg: null, bg: null, bold: false, dim: false, italic: false, underline: false };

// CSI sequences (ESC [ ... final), OSC sequences (ESC ] ... BEL or ESC \), charset designations (ESC ( B), other two-byte escapes.
const ESCAPE = /\u001b(?:\[([0-9;:?<=>]*)[ -/]*([@-~])|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[ -/]+[0-~]|[@-Z\\-_])/g;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** Reads the extended colour after 38/48 (`5;n` or `2;r;g;b`); returns the colour (only the 16 named ones) and how many parameters it used. */
function readExtendedColour(params: number[], index: number): { colour: number | null; used: number } {
  const mode = params[index + 1];
  if (mode === 5) {
    const n = params[index + 2];
    return { colour: n !== undefined && n >= 0 && n < 16 ? n : null, used: 2 };
  }
  if (mode === 2) return { colour: null, used: 4 };
  return { colour: null, used: 0 };
}

function applySgr(style: AnsiStyle, rawParams: string): AnsiStyle {
  const params = rawParams === '' ? [0] : rawParams.split(/[;:]/).map((p) => (p === '' ? 0 : Number(p)));
  const next = { ...style };
  for (let i = 0; i < params.length; i++) {
    const code = params[i] ?? 0;
    if (code === 0) Object.assign(next, PLAIN);
    else if (code === 1) next.bold = true;
    else if (code === 2) next.dim = true;
    else if (code === 3) next.italic = true;
    else if (code === 4) next.underline = true;
    else if (code === 21 || code === 22) {
      next.bold = false;
      next.dim = false;
    } else if (code === 23) next.italic = false;
    else if (code === 24) next.underline = false;
    else if (code >= 30 && code <= 37) next.fg = code - 30;
    else if (code === 39) next.fg = null;
    else if (code >= 40 && code <= 47) next.bg = code - 40;
    else if (code === 49) next.bg = null;
    else if (code >= 90 && code <= 97) next.fg = code - 90 + 8;
    else if (code >= 100 && code <= 107) next.bg = code - 100 + 8;
    else if (code === 38 || code === 48) {
      const { colour, used } = readExtendedColour(params, i);
      if (code === 38) next.fg = colour;
      else next.bg = colour;
      i += used;
    }
  }
  return next;
}

function sameStyle(a: AnsiStyle, b: AnsiStyle): boolean {
  return (
    a.fg === b.fg &&
    a.bg === b.bg &&
    a.bold === b.bold &&
    a.dim === b.dim &&
    a.italic === b.italic &&
    a.underline === b.underline
  );
}

/** What a terminal would show of a line rewritten with carriage returns (progress bars): the text after the last one. */
function afterCarriageReturn(line: string): string {
  const trimmed = line.endsWith('\r') ? line.replace(/\r+$/, '') : line;
  const index = trimmed.lastIndexOf('\r');
  return index === -1 ? trimmed : trimmed.slice(index + 1);
}

/** Splits one log line into styled text segments. Each line starts unstyled. */
export function parseAnsi(line: string): AnsiSegment[] {
  const input = afterCarriageReturn(line);
  const segments: AnsiSegment[] = [];
  let style: AnsiStyle = PLAIN;
  let last = 0;
  const push = (text: string) => {
    const clean = text.replace(CONTROL, '');
    if (!clean) return;
    const previous = segments.at(-1);
    if (previous && sameStyle(previous, style)) previous.text += clean;
    else segments.push({ ...style, text: clean });
  };
  ESCAPE.lastIndex = 0;
  for (let match = ESCAPE.exec(input); match; match = ESCAPE.exec(input)) {
    push(input.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[2] === 'm') style = applySgr(style, match[1] ?? '');
  }
  push(input.slice(last));
  return segments;
}

/** The line's text without any escape sequence. */
export function stripAnsi(line: string): string {
  return parseAnsi(line)
    .map((segment) => segment.text)
    .join('');
}

/** CSS class names of a segment's style, matched by the log view's stylesheet. */
export function ansiClassName(style: AnsiStyle): string {
  const names: string[] = [];
  if (style.fg !== null) names.push(`ansi-fg-${style.fg}`);
  if (style.bg !== null) names.push(`ansi-bg-${style.bg}`);
  if (style.bold) names.push('ansi-bold');
  if (style.dim) names.push('ansi-dim');
  if (style.italic) names.push('ansi-italic');
  if (style.underline) names.push('ansi-underline');
  return names.join(' ');
}

/** Terminal palette for a dark log background: 8 standard colours, then their 8 bright variants; black text stays readable. */
export const ANSI_PALETTE: readonly string[] = [
  '#6e7681',
  '#ff7b72',
  '#3fb950',
  '#d29922',
  '#58a6ff',
  '#bc8cff',
  '#39c5cf',
  '#c9d1d9',
  '#8b949e',
  '#ffa198',
  '#56d364',
  '#e3b341',
  '#79c0ff',
  '#d2a8ff',
  '#56d4dd',
  '#ffffff',
];

/** Background colours: the same palette, except that a black background is black. */
export const ANSI_BACKGROUND_PALETTE: readonly string[] = ['#000000', ...ANSI_PALETTE.slice(1)];
