import { stripAnsi } from './log-text.ts';

/** Anything but letters, digits and combining marks separates words. */
const SEPARATORS = /[^\p{L}\p{N}\p{M}]+/u;
/** MariaDB's FULLTEXT indexes no longer word (innodb_ft_max_token_size): longer words are cut, everywhere. */
const MAX_WORD = 84;
/** Characters of a line's words that go into the index; the rest of a very long line is not searched. */
const INDEXED_CHARS = 4000;

function splitWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(SEPARATORS)
    .filter((word) => word !== '')
    .map((word) => (word.length > MAX_WORD ? word.slice(0, MAX_WORD) : word));
}

/**
 * What the index holds of a stored line (secrets already masked): its words as the log shows it, without
 * colour codes, lower-cased, separated by single spaces, cut at a word to INDEXED_CHARS.
 */
export function toIndexedWords(output: string): string {
  let words = splitWords(stripAnsi(output)).join(' ');
  if (words.length > INDEXED_CHARS) {
    const cut = words.lastIndexOf(' ', INDEXED_CHARS);
    words = words.slice(0, cut > 0 ? cut : INDEXED_CHARS);
  }
  return words;
}

/** The words of a search text, in the same form as the index holds them. */
export function toSearchWords(text: string): string[] {
  return splitWords(text);
}

/** Whether a line's indexed words hold the search's words one after the other. */
export function holdsPhrase(indexedWords: string, phrase: string): boolean {
  return ` ${indexedWords} `.includes(` ${phrase} `);
}
