import { describe, expect, it } from 'vitest';
import { ansiClassName, parseAnsi, stripAnsi } from './ansi.ts';

const ESC = '\u001b';
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

  it('uses 256-colour codes below 16 and drops the others without misreading their parameters', () => {
    expect(texts(`${ESC}[38;5;9ma${ESC}[38;5;200mb${ESC}[38;2;1;32;4mc`)).toEqual([
      ['a', 'ansi-fg-9'],
      ['bc', ''],
    ]);
    // "32" inside the RGB triple must not turn the text green; "4" must not underline it.
    expect(parseAnsi(`${ESC}[38;2;1;32;4mx`)[0]).toMatchObject({ fg: null, underline: false });
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
