/** A UTF-16 surrogate without its other half: no character at all, which the databases store each their own way. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE = new RegExp(`\u0000|${LONE_SURROGATE.source}`, 'g');

/**
 * Why text cannot be stored as it is, undefined when it can. PostgreSQL refuses a NUL character in
 * text (and no field of ours has a use for one, nor a process's argv or environment); half of a
 * surrogate pair is no character, and each database turns it into something else, so two different
 * names could become one.
 */
export function describeUnstorableText(text: string, name: string): string | undefined {
  if (text.includes('\u0000')) return `${name} must not contain NUL characters`;
  if (LONE_SURROGATE.test(text)) return `${name} must be valid Unicode text (it holds half of a surrogate pair)`;
  return undefined;
}

/**
 * Text a machine reported (a task's output, relayed by a remote runner) as the store can keep it:
 * each NUL character and each half of a surrogate pair becomes U+FFFD, as a line run here is stored.
 */
export function toStorableText(text: string): string {
  return text.replace(UNSTORABLE, '\uFFFD');
}
