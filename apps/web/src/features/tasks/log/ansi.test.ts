import { describe, expect, it } from 'vitest';
import { ansiClassName, ansiInlineColours, parseAnsi, stripAnsi } from './ansi.ts';
import type { AnsiSegment } from './ansi.ts';

const ESC = '\u001b';
const PLAIN_SEGMENT: AnsiSegment = {
  text: '',
  fg: null,
  bg: null,
  bold: false,
  dim: false,
  italic: false,
  underline: false,
};
const texts = (line: string) => parseAnsi(line).map((s) => [s.text, ansiClassName(s)]);

describe('parseAnsi', () => {
  it('keeps plain text as one unstyled segment', () => {
    expect(texts('hello world')).toEqual([['hello world', '']]);
    expect(parseAnsi('')).toEqual([]);
  });

  it('maps the 8 standard foreground colours and resets', () => {
    for (let n = 0; n < 8; n++) {
      expect(texts(`${ESC}[3${n}mx${ESC}[0m y`)).toEqual([
        ['x', `ansi-fg-${n}`],
        [' y', ''],
      ]);
    }
  });

  it('maps the 8 bright foreground and background colours', () => {
    for (let n = 0; n < 8; n++) {
      expect(texts(`${ESC}[9${n}mfg`)).toEqual([['fg', `ansi-fg-${n + 8}`]]);
      expect(texts(`${ESC}[10${n}mbg`)).toEqual([['bg', `ansi-bg-${n + 8}`]]);
      expect(texts(`${ESC}[4${n}mbg`)).toEqual([['bg', `ansi-bg-${n}`]]);
    }
  });

  it('combines bold with colours in one sequence, and turns attributes off one by one', () => {
    expect(texts(`${ESC}[1;31mok${ESC}[22m thin${ESC}[39m plain`)).toEqual([
      ['ok', 'ansi-fg-1 ansi-bold'],
      [' thin', 'ansi-fg-1'],
      [' plain', ''],
    ]);
    expect(texts(`${ESC}[4;3;2mu${ESC}[24;23mv`)).toEqual([
      ['u', 'ansi-dim ansi-italic ansi-underline'],
      ['v', 'ansi-dim'],
    ]);
  });

  it('treats an empty SGR as a reset (ESC[m) and an empty parameter as 0', () => {
    expect(texts(`${ESC}[32ma${ESC}[mb${ESC}[33;mc`)).toEqual([
      ['a', 'ansi-fg-2'],
      ['bc', ''],
    ]);
  });

  it('reads 256-colour codes: the 16 named colours by class, the cube and greys as colours', () => {
    expect(texts(`${ESC}[38;5;9ma${ESC}[38;5;200mb`)).toEqual([
      ['a', 'ansi-fg-9'],
      ['b', ''],
    ]);
    expect(parseAnsi(`${ESC}[38;5;200mb`)[0]).toMatchObject({ fg: '#ff00d7' });
    expect(parseAnsi(`${ESC}[38;5;16mb`)[0]).toMatchObject({ fg: '#000000' });
    expect(parseAnsi(`${ESC}[38;5;231mb`)[0]).toMatchObject({ fg: '#ffffff' });
    expect(parseAnsi(`${ESC}[38;5;232mb`)[0]).toMatchObject({ fg: '#080808' });
    expect(parseAnsi(`${ESC}[48;5;255mb`)[0]).toMatchObject({ bg: '#eeeeee', fg: null });
    expect(ansiInlineColours(parseAnsi(`${ESC}[38;5;200;48;5;21mb`)[0] ?? PLAIN_SEGMENT)).toEqual({
      color: '#ff00d7',
      backgroundColor: '#0000ff',
    });
  });

  it('reads true colours without misreading their parameters as attributes', () => {
    const [segment] = parseAnsi(`${ESC}[38;2;1;32;4mc`);
    // "32" inside the RGB triple must not turn the text green; "4" must not underline it.
    expect(segment).toMatchObject({ fg: '#012004', underline: false });
    expect(ansiClassName(segment ?? PLAIN_SEGMENT)).toBe('');
    expect(parseAnsi(`${ESC}[1;48;2;255;128;0;3mx`)[0]).toMatchObject({ bg: '#ff8000', bold: true, italic: true });
    expect(parseAnsi(`${ESC}[38;2;255;128;0mx${ESC}[39my`)).toMatchObject([{ fg: '#ff8000' }, { fg: null }]);
    // Out of range or missing components leave the default colour.
    expect(parseAnsi(`${ESC}[38;2;300;0;0mx`)[0]).toMatchObject({ fg: null });
    expect(parseAnsi(`${ESC}[38;5;256mx`)[0]).toMatchObject({ fg: null });
    expect(ansiInlineColours(parseAnsi('plain')[0] ?? PLAIN_SEGMENT)).toBeUndefined();
  });

  it('turns bold, dim, italic and underline on and off, and a full reset clears colours too', () => {
    expect(texts(`${ESC}[1mb${ESC}[2md${ESC}[22mn${ESC}[3;4mi${ESC}[23mu${ESC}[24mp`)).toEqual([
      ['b', 'ansi-bold'],
      ['d', 'ansi-bold ansi-dim'],
      ['n', ''],
      ['i', 'ansi-italic ansi-underline'],
      ['u', 'ansi-underline'],
      ['p', ''],
    ]);
    expect(parseAnsi(`${ESC}[1;38;5;100;48;2;1;2;3mx${ESC}[0my`)[1]).toMatchObject({
      fg: null,
      bg: null,
      bold: false,
    });
  });

  it('drops cursor moves, OSC titles and stray control characters', () => {
    expect(stripAnsi(`${ESC}[2K${ESC}[1Gdone${ESC}]0;title\u0007!\u0007`)).toBe('done!');
    expect(stripAnsi(`a${ESC}[?25lb${ESC}(Bc`)).toBe('abc');
    expect(stripAnsi('tab\there')).toBe('tab\there');
  });

  it('shows what remains after carriage returns, like a terminal', () => {
    expect(stripAnsi('10%\r50%\r100%')).toBe('100%');
    expect(stripAnsi('windows line\r')).toBe('windows line');
  });

  it('never produces markup: text stays text', () => {
    expect(stripAnsi('<script>alert(1)</script>')).toBe('<script>alert(1)</script>');
  });
});
