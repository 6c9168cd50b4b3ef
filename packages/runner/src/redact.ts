export const REDACTED = '********';

/** Secrets shorter than this are not redacted: masking "a" or "1" would garble every line. */
const MIN_SECRET_LENGTH = 4;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Replaces every known secret value in a line with ********. Multi-line secrets (private keys)
 * are also matched line by line, since output arrives one line at a time.
 */
export function createRedactor(secrets: Iterable<string>): (line: string) => string {
  const pieces = new Set<string>();
  for (const secret of secrets) {
    for (const piece of [secret, ...secret.split(/\r?\n/)]) {
      const trimmed = piece.trim();
      if (trimmed.length >= MIN_SECRET_LENGTH) pieces.add(trimmed);
    }
  }
  if (pieces.size === 0) return (line) => line;
  const pattern = new RegExp([...pieces].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
  return (line) => line.replace(pattern, REDACTED);
}
