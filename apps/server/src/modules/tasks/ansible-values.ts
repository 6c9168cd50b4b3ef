import { HOST_LIMITS, MAX_JSON_DEPTH, nestedTooDeep } from '@gantry/contract';
import { validationFailed } from '../../errors.ts';

/**
 * Variables that choose how or with what a task reaches its hosts, or what the controller executes:
 * an interpreter, a shell, a transport's own arguments (ProxyCommand...), a become program. Set
 * from a task they run any command on the Gantry host, so no task request may carry them, whoever
 * sends it; the inventory and the template are where they belong. The names that follow the
 * ansible ones hijack a process through its environment (secret answers of shell and pulumi
 * tasks become environment variables).
 */
const DENIED_VARIABLES: readonly RegExp[] = [
  /^ansible_.*interpreter$/,
  /^ansible_.*_exe(cutable)?$/,
  /^ansible_(connection|host|port|user|remote_user|password|pass|private_key_file|pipelining|shell_type|remote_tmp|module_compression|async_dir|timeout|network_os)$/,
  /^ansible_become/,
  /^ansible_(ssh|scp|sftp|paramiko|libssh|psrp|winrm|netconf|httpapi|docker|podman|kubectl|buildah|chroot|jail|zone|lxc|lxd|local|persistent)_/,
  /^ansible_(su|sudo|pbrun|pfexec|doas|dzdo|ksu|runas|machinectl|sesu)_/,
  /^(ld|dyld)_/,
  /^bash_(env|func_)/,
  /^(env|path|ifs|ps4|shellopts|bashopts|prompt_command|node_options|rubyopt|perl5opt|perl5lib|perllib|git_ssh|git_ssh_command|git_exec_path)$/,
  /^python[a-z]+$/,
];

/** How a variable name is compared: every spelling of one name (case, spaces, invisible characters) is the same name. */
function normalizeVariableName(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/[\s\p{Cf}]/gu, '')
    .toLowerCase();
}

export function isDeniedVariable(name: string): boolean {
  const normalized = normalizeVariableName(name);
  return DENIED_VARIABLES.some((pattern) => pattern.test(normalized));
}

export const deniedVariable = (name: string) =>
  validationFailed(
    `Variable "${name}" cannot be set from a task: connection and interpreter settings belong to the inventory or the template`,
  );

/** Ansible renders `{{ }}` in extra variables, and a lookup in there runs commands on the controller. */
export const TEMPLATE_EXPRESSION = /\{\{|\{%|\{#/;

/**
 * What Python's str.strip() removes from both ends, and more: JavaScript's white space and the
 * separators \x1c-\x1f and \x85, which Python counts as white space and trim() keeps. Ansible strips
 * host patterns this way, so a check that trimmed less would see a different first character.
 */
const SURROUNDING_SPACE = /^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/gu;

/**
 * The keys and strings of a parsed JSON value, at every depth, for checking what Ansible will read:
 * a value nested deeper than the checks go is refused, since Ansible would read (and render) it all.
 */
export function textsOf(value: unknown, what: string, depth = 0): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  if (depth >= MAX_JSON_DEPTH) throw validationFailed(nestedTooDeep(what));
  return Object.entries(value).flatMap(([key, item]) => [key, ...textsOf(item, what, depth + 1)]);
}

/**
 * What an --extra-vars value says once ansible-playbook has decoded it. Ansible reads a value that
 * starts with `{` or `[` as JSON or YAML and anything else as key=value pairs, and decodes escapes in
 * all of them (`\u0061nsible_connection`, `\x7b\x7b`), YAML tags and anchors besides. So a structured
 * value must be JSON, checked as parsed, and key=value pairs may hold no backslash: what is checked
 * is then what Ansible reads.
 */
function decodedExtraVars(text: string): string[] {
  if (text.startsWith('{') || text.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw validationFailed('CLI argument --extra-vars must be valid JSON when it starts with { or [');
    }
    return textsOf(parsed, 'CLI argument --extra-vars');
  }
  if (text.includes('\\'))
    throw validationFailed('CLI argument --extra-vars cannot hold escape sequences (\\) unless it is JSON');
  return [text];
}

/**
 * Names in an --extra-vars value (key=value pairs or JSON), as Ansible will read them: every
 * word that could be a key is checked. Its values are extra variables like the environment's, so the
 * same expression rule holds.
 */
export function checkExtraVarsText(text: string, untrusted: boolean): void {
  const texts = decodedExtraVars(text);
  for (const word of texts.flatMap((t) => t.match(/[\p{L}\p{N}_]+/gu) ?? []))
    if (isDeniedVariable(word)) throw deniedVariable(word);
  if (!untrusted) return;
  if (texts.some((t) => TEMPLATE_EXPRESSION.test(t)))
    throw validationFailed('CLI argument --extra-vars cannot hold a template expression ({{ }}, {% %} or {# #})');
  // `@file` loads variables from a file of the server's, which a task runner has no business reading.
  if (text.replace(SURROUNDING_SPACE, '').startsWith('@'))
    throw validationFailed('CLI argument --extra-vars cannot load a file (@…)');
}

/**
 * A host pattern (--limit) element that starts with `@` makes ansible read that file as a list of
 * hosts and print every line it cannot match: any file of the server's would land in the task's log.
 * Ansible splits a pattern on commas, or else on colons, white space of any kind and brackets, and
 * `!` and `&` may lead an element: so an `@` after anything but a letter, digit, `.`, `_` or `-` could
 * start one, and is refused (`user@host` is not). Control characters have no place in a host pattern.
 */
export function checkHostPatterns(text: string, source: string): void {
  if (/\p{Cc}/u.test(text)) throw validationFailed(`${source} cannot hold control characters`);
  if (/(^|[^\p{L}\p{N}._-])@/u.test(text)) throw validationFailed(`${source} cannot read hosts from a file (@…)`);
}

/**
 * Whether a host name can go into --limit as it is and name exactly that host. Host pattern syntax would
 * widen or redirect it: `,` and `:` separate patterns, a leading `!`, `&`, `~` or `@` negates,
 * intersects, starts a regular expression or reads a file, and `*`, `?`, `[`, `]` match other hosts.
 */
export function isExactHostName(name: string): boolean {
  return (
    name.length > 0 && name.length <= HOST_LIMITS.nameLength && !/[\s\p{C},:*?[\]]/u.test(name) && !/^[!&~@]/.test(name)
  );
}
