import { describe, expect, it } from 'vitest';
import { splitLinks } from './log-links.ts';

describe('splitLinks', () => {
  it('keeps text without an address as one plain part', () => {
    expect(splitLinks('nothing to see')).toEqual([{ text: 'nothing to see' }]);
    expect(splitLinks('')).toEqual([]);
  });

  it('finds http and https addresses among text', () => {
    expect(splitLinks('see https://example.com/a?b=1#c and http://host:8080/x done')).toEqual([
      { text: 'see ' },
      { text: 'https://example.com/a?b=1#c', href: 'https://example.com/a?b=1#c' },
      { text: ' and ' },
      { text: 'http://host:8080/x', href: 'http://host:8080/x' },
      { text: ' done' },
    ]);
  });

  it('leaves closing punctuation and brackets out, unless the address opened them', () => {
    expect(splitLinks('(see https://example.com/docs).')).toEqual([
      { text: '(see ' },
      { text: 'https://example.com/docs', href: 'https://example.com/docs' },
      { text: ').' },
    ]);
    expect(splitLinks('https://en.wikipedia.org/wiki/Foo_(bar), ok')[0]).toEqual({
      text: 'https://en.wikipedia.org/wiki/Foo_(bar)',
      href: 'https://en.wikipedia.org/wiki/Foo_(bar)',
    });
    expect(splitLinks('"https://example.com/q"')[1]).toEqual({
      text: 'https://example.com/q',
      href: 'https://example.com/q',
    });
  });

  it('never links another scheme', () => {
    for (const text of [
      'javascript:alert(1)',
      'JAVASCRIPT://example.com/%0aalert(1)',
      'data:text/html,<script>x</script>',
      'file:///etc/passwd',
      'ftp://example.com/file',
      'vbscript:msgbox',
    ])
      expect(splitLinks(text).every((part) => part.href === undefined)).toBe(true);
    // An address inside another scheme's text is only linked as the http(s) address it contains.
    expect(splitLinks('javascript:x//https://ok.example/')).toEqual([
      { text: 'javascript:x//' },
      { text: 'https://ok.example/', href: 'https://ok.example/' },
    ]);
  });

  it('leaves text that only looks like an address alone', () => {
    expect(splitLinks('http:// nothing')).toEqual([{ text: 'http:// nothing' }]);
    expect(splitLinks('https://[bad')).toEqual([{ text: 'https://[bad' }]);
  });

  it('handles an address with thousands of brackets in linear time', () => {
    const n = 20_000;
    const started = performance.now();
    const nested = `https://example.com/${'('.repeat(n)}${')'.repeat(n + 1)}.`;
    expect(splitLinks(nested)[0]?.text).toBe(nested.slice(0, -2));
    const unopened = `https://example.com/${')'.repeat(n)}x${')'.repeat(n)}`;
    expect(splitLinks(unopened)[0]?.text).toBe(`https://example.com/${')'.repeat(n)}x`);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
