/**
 * A small ANSI SGR parser for task logs: the 8 standard and 8 bright colours, the 256-colour palette
 * (`38;5;n`, `48;5;n`) and true colours (`38;2;r;g;b`), foreground and background; bold, dim, italic,
 * underline and their resets. Other escape sequences (cursor moves, titles) are consumed and dropped,
 * so they never show up as garbage.
 */

/** 0-7 standard, 8-15 bright (drawn with the log's theme palette); any other colour as `#rrggbb`. */
type AnsiColour = number | string;

export interface AnsiStyle {
  /** null is the default colour. */
  fg: AnsiColour | null;
  bg: AnsiColour | null;
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

const hex = (value: number) =>
  Math.max(0, Math.min(255, Math.round(value)))
    .toString(16)
    .padStart(2, '0');
const rgb = (r: number, g: number, b: number) => `#${hex(r)}${hex(g)}${hex(b)}`;
const CUBE_LEVELS = [0, 95, 135, 175, 215, 255];

/** The xterm 256-colour palette: the 16 named colours, a 6×6×6 cube, then 24 greys. */
function paletteColour(n: number): AnsiColour {
  if (n < 16) return n;
  if (n < 232) {
    const i = n - 16;
    return rgb(CUBE_LEVELS[Math.floor(i / 36)] ?? 0, CUBE_LEVELS[Math.floor(i / 6) % 6] ?? 0, CUBE_LEVELS[i % 6] ?? 0);
  }
  const grey = 8 + (n - 232) * 10;
  return rgb(grey, grey, grey);
}

const isByte = (n: number | undefined): n is number => n !== undefined && Number.isInteger(n) && n >= 0 && n <= 255;

/** Reads the extended colour after 38/48 (`5;n` or `2;r;g;b`); returns the colour (null when malformed) and how many parameters it used. */
function readExtendedColour(params: number[], index: number): { colour: AnsiColour | null; used: number } {
  const mode = params[index + 1];
  if (mode === 5) {
    const n = params[index + 2];
    return { colour: isByte(n) ? paletteColour(n) : null, used: 2 };
  }
  if (mode === 2) {
    const [r, g, b] = [params[index + 2], params[index + 3], params[index + 4]];
    return { colour: isByte(r) && isByte(g) && isByte(b) ? rgb(r, g, b) : null, used: 4 };
  }
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

/** CSS class names of a segment's style, matched by the log view's stylesheet; colours outside the 16 named ones are in {@link ansiInlineColours}. */
export function ansiClassName(style: AnsiStyle): string {
  const names: string[] = [];
  if (typeof style.fg === 'number') names.push(`ansi-fg-${style.fg}`);
  if (typeof style.bg === 'number') names.push(`ansi-bg-${style.bg}`);
  if (style.bold) names.push('ansi-bold');
  if (style.dim) names.push('ansi-dim');
  if (style.italic) names.push('ansi-italic');
  if (style.underline) names.push('ansi-underline');
  return names.join(' ');
}

/** The 256-colour and true colours of a segment, as inline CSS (they have no class); undefined when there are none. */
export function ansiInlineColours(style: AnsiStyle): { color?: string; backgroundColor?: string } | undefined {
  const color = typeof style.fg === 'string' ? style.fg : undefined;
  const backgroundColor = typeof style.bg === 'string' ? style.bg : undefined;
  if (color === undefined && backgroundColor === undefined) return undefined;
  return { ...(color ? { color } : {}), ...(backgroundColor ? { backgroundColor } : {}) };
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
