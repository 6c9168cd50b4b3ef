/**
 * What "Jump to first error" looks for, as a case-sensitive JavaScript regular expression the server's
 * log search runs over every line as shown (without colour codes), so it finds the line in a log of any
 * length. One alternative a tool:
 * - ansible: `fatal:` (a failed host), `FAILED!` (a failed module), `ERROR!` (a playbook it cannot run),
 *   `failed=` followed by a non-zero count (the play recap);
 * - terraform / OpenTofu: `Error:` (also after the box drawing of their diagnostics);
 * - python: `Traceback (most recent call last):`;
 * - any tool: a line starting with the word `error` in any case (`ERROR: ...`, `error: ...`).
 */
export const ERROR_LINE_PATTERN = String.raw`fatal:|FAILED!|ERROR!|failed=[1-9]|\bError:|Traceback \(most recent call last\)|^\s*[Ee][Rr][Rr][Oo][Rr]\b`;
