/** Letters, digits and combining marks make words; anything else separates them (as the server's index does). */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

export interface TextPart {
  text: string;
  /** One of the searched words. */
  hit: boolean;
}

/** The words of a search text, lower-cased, as the server matches them. */
export function toSearchWords(query: string): string[] {
  return [...query.toLowerCase().matchAll(WORD)].map((match) => match[0]);
}

/**
 * A line cut into parts, the words of the search marked: whole words, case aside, so "disk" marks "Disk"
 * in "Disk-Quota" and not "disks".
 */
export function highlightWords(text: string, words: readonly string[]): TextPart[] {
  const wanted = new Set(words);
  const parts: TextPart[] = [];
  let last = 0;
  const push = (part: TextPart) => {
    const previous = parts.at(-1);
    if (previous && previous.hit === part.hit) previous.text += part.text;
    else parts.push(part);
  };
  for (const match of text.matchAll(WORD)) {
    if (!wanted.has(match[0].toLowerCase())) continue;
    if (match.index > last) push({ text: text.slice(last, match.index), hit: false });
    push({ text: match[0], hit: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) push({ text: text.slice(last), hit: false });
  return parts;
}
