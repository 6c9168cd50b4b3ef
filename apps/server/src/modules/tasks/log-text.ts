// Colour and cursor escape sequences.
const ANSI_PATTERN = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** A log line as plain text: what the raw download holds and what a search matches. */
export function stripAnsi(line: string): string {
  return line.includes('\u001b') ? line.replace(ANSI_PATTERN, '') : line;
}
