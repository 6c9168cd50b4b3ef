import path from 'node:path';
import { validationFailed } from '../../errors.ts';
import { checkExtraVarsText, checkHostPatterns } from './ansible-values.ts';

/** ansible-playbook options that pick the transport, the inventory or code the controller runs; argparse also takes their prefixes. */
const DENIED_ANSIBLE_LONG_OPTIONS = [
  '--connection',
  '--ssh-common-args',
  '--ssh-extra-args',
  '--scp-extra-args',
  '--sftp-extra-args',
  '--become-method',
  '--module-path',
  '--inventory',
  '--inventory-file',
  // A password file that is executable is run, so these name a program as much as a file.
  '--vault-id',
  '--vault-password-file',
  '--vault-pass-file',
  '--become-password-file',
  '--become-pass-file',
  '--connection-password-file',
  '--conn-pass-file',
];
/** Options of their own that are also prefixes of a denied one. */
const ALLOWED_ANSIBLE_LONG_OPTIONS = new Set(['--become']);
const DENIED_ANSIBLE_SHORT_OPTIONS = new Set(['c', 'i', 'M']);
const ANSIBLE_SHORT_OPTIONS_WITH_VALUE = new Set(['c', 'e', 'f', 'i', 'l', 'M', 't', 'T', 'u']);

const deniedOption = (option: string) =>
  validationFailed(`CLI argument ${option} cannot be passed to a task: the template and its inventory set it`);

/**
 * What nobody may pass to ansible-playbook from a task, under any spelling: the options above, and
 * connection or interpreter variables in --extra-vars. Whoever may edit the template could set them
 * there; a task request is not the place.
 */
function checkDeniedAnsibleOptions(args: readonly string[]): void {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const next = args[i + 1] ?? '';
    if (arg.startsWith('--')) {
      const [name = '', ...rest] = arg.split('=');
      if (name.length < 3 || ALLOWED_ANSIBLE_LONG_OPTIONS.has(name)) continue;
      const denied = DENIED_ANSIBLE_LONG_OPTIONS.find((option) => option.startsWith(name));
      if (denied) throw deniedOption(denied);
      if ('--extra-vars'.startsWith(name)) checkExtraVarsText(rest.length > 0 ? rest.join('=') : next, false);
    } else if (arg.startsWith('-')) {
      // Short flags combine (-vvc local) and a value may follow its letter directly (-clocal).
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j] ?? '';
        if (DENIED_ANSIBLE_SHORT_OPTIONS.has(letter)) throw deniedOption(`-${letter}`);
        if (letter === 'e') checkExtraVarsText(j + 1 < arg.length ? arg.slice(j + 1) : next, false);
        if (ANSIBLE_SHORT_OPTIONS_WITH_VALUE.has(letter)) break;
      }
    }
  }
}

/** What an option takes: nothing (a switch), free text, a count, host patterns or extra variables. */
type OptionValue = 'switch' | 'text' | 'count' | 'hosts' | 'extra-vars';

/**
 * The options a task runner (or a webhook caller's payload) may pass to a program, and how the
 * program reads its command line, so that each value is checked as the program will see it.
 * - argparse (ansible-playbook): `--name=value` or `--name value`; short letters in clusters, a
 *   value glued to its letter (`-l web`, `-lweb`, `-l=web`, `-vl web`).
 * - go-flag (terraform, tofu): one or two dashes, `-name=value` or `-name value`, a switch's value
 *   only after `=`; the first word that is not an option ends the options.
 * - pflag (pulumi): `--name=value` or `--name value`; short letters as argparse reads them.
 * Long options are matched in full: a prefix argparse would expand is refused, not guessed.
 */
interface ArgumentGrammar {
  program: string;
  style: 'argparse' | 'go-flag' | 'pflag';
  long: Readonly<Record<string, OptionValue>>;
  short: Readonly<Record<string, OptionValue>>;
  /** Words that are not options: more playbooks inside the checkout, or none at all. */
  words: 'inside-checkout' | 'refused';
}

const ANSIBLE_GRAMMAR: ArgumentGrammar = {
  program: 'ansible-playbook',
  style: 'argparse',
  long: {
    verbose: 'switch',
    check: 'switch',
    diff: 'switch',
    become: 'switch',
    'list-hosts': 'switch',
    'list-tasks': 'switch',
    'list-tags': 'switch',
    'syntax-check': 'switch',
    'flush-cache': 'switch',
    'force-handlers': 'switch',
    forks: 'count',
    limit: 'hosts',
    tags: 'text',
    'skip-tags': 'text',
    'start-at-task': 'text',
    'extra-vars': 'extra-vars',
  },
  short: { v: 'switch', C: 'switch', D: 'switch', b: 'switch', f: 'count', l: 'hosts', t: 'text', e: 'extra-vars' },
  words: 'inside-checkout',
};

/** Options of `terraform plan` that choose what to plan, never where files are read or written. */
const TERRAFORM_OPTIONS: Readonly<Record<string, OptionValue>> = {
  target: 'text',
  replace: 'text',
  refresh: 'switch',
  'refresh-only': 'switch',
  parallelism: 'count',
  lock: 'switch',
  'lock-timeout': 'text',
  'compact-warnings': 'switch',
  'no-color': 'switch',
};

const GRAMMARS: Readonly<Record<string, ArgumentGrammar>> = {
  ansible: ANSIBLE_GRAMMAR,
  terraform: { program: 'terraform', style: 'go-flag', long: TERRAFORM_OPTIONS, short: {}, words: 'refused' },
  tofu: { program: 'tofu', style: 'go-flag', long: TERRAFORM_OPTIONS, short: {}, words: 'refused' },
  pulumi: {
    program: 'pulumi',
    style: 'pflag',
    long: {
      target: 'text',
      'target-dependents': 'switch',
      replace: 'text',
      refresh: 'switch',
      diff: 'switch',
      parallel: 'count',
      message: 'text',
      'expect-no-changes': 'switch',
      'suppress-outputs': 'switch',
      'suppress-progress': 'switch',
      'show-replacement-steps': 'switch',
      'show-sames': 'switch',
      'show-reads': 'switch',
    },
    short: { t: 'text', r: 'switch', p: 'count', m: 'text' },
    words: 'refused',
  },
};

/** The spellings Go's strconv.ParseBool accepts: a switch given a value (`-refresh=false`). */
const GO_BOOLEANS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False']);

const onlyManagers = 'only members who manage the project resources can pass it';

/**
 * A word that names a file outside the checkout: ansible-playbook takes extra words as more
 * playbooks, so `/srv/other-project/site.yml`, `../../x.yml` or `~/x.yml` would run code from elsewhere.
 */
function leavesCheckout(word: string): boolean {
  return path.isAbsolute(word) || word.startsWith('~') || word.split(/[\\/]/).includes('..');
}

/**
 * Reads untrusted arguments as the grammar's program will, refusing any option it does not list and
 * checking each value; returns the indexes of the words that are not options (more playbooks) and
 * of the `--` that ends the options, if one does.
 */
function checkAllowedArguments(grammar: ArgumentGrammar, args: readonly string[]): { words: number[]; end?: number } {
  const refuse = (option: string) =>
    validationFailed(`CLI argument ${option} is not one a task may pass to ${grammar.program}; ${onlyManagers}`);
  let i = 0;
  const takeValue = (option: string, glued: string | undefined): string => {
    const value = glued ?? args[i++];
    if (value === undefined) throw validationFailed(`CLI argument ${option} needs a value`);
    return value;
  };
  const checkValue = (option: string, kind: OptionValue, value: string) => {
    if (kind === 'hosts') checkHostPatterns(value, `CLI argument ${option}`);
    else if (kind === 'extra-vars') checkExtraVarsText(value, true);
    else if (kind === 'count' && !/^\d{1,6}$/.test(value))
      throw validationFailed(`CLI argument ${option} takes a whole number`);
  };
  const checkSwitchValue = (option: string, value: string | undefined) => {
    if (value !== undefined && (grammar.style === 'argparse' || !GO_BOOLEANS.has(value)))
      throw validationFailed(`CLI argument ${option} takes no value but true or false`);
  };
  const checkWord = (word: string) => {
    if (grammar.words === 'refused')
      throw validationFailed(
        `CLI argument ${word} is not an option; ${grammar.program} takes no other words from a task`,
      );
    if (leavesCheckout(word)) throw validationFailed(`CLI argument ${word} names a file outside the repository`);
  };

  const words: number[] = [];
  let end: number | undefined;
  let optionsEnded = false;
  while (i < args.length) {
    const arg = args[i++] ?? '';
    if (optionsEnded || !arg.startsWith('-') || arg === '-') {
      checkWord(arg);
      words.push(i - 1);
      if (grammar.style === 'go-flag') optionsEnded = true;
      continue;
    }
    if (arg === '--') {
      optionsEnded = true;
      end = i - 1;
      continue;
    }
    if (grammar.style === 'go-flag' || arg.startsWith('--')) {
      const dashes = arg.startsWith('--') ? 2 : 1;
      const [name = '', ...rest] = arg.slice(dashes).split('=');
      const glued = rest.length > 0 ? rest.join('=') : undefined;
      const option = `${'-'.repeat(dashes)}${name}`;
      const kind = Object.hasOwn(grammar.long, name) ? grammar.long[name] : undefined;
      if (kind === undefined) throw refuse(option);
      if (kind === 'switch') checkSwitchValue(option, glued);
      else checkValue(option, kind, takeValue(option, glued));
      continue;
    }
    // Short letters: switches run together until a letter that takes a value, which takes the rest or the next word.
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j] ?? '';
      const option = `-${letter}`;
      const kind = Object.hasOwn(grammar.short, letter) ? grammar.short[letter] : undefined;
      if (kind === undefined) throw refuse(option);
      const rest = arg.slice(j + 1);
      if (kind === 'switch') {
        if (!rest.startsWith('=')) continue;
        checkSwitchValue(option, rest.slice(1));
        break;
      }
      // `-l=x` is `x` to argparse and pflag; checking without the `=` sees what the program will.
      checkValue(option, kind, takeValue(option, rest ? rest.replace(/^=/, '') : undefined));
      break;
    }
  }
  return { words, end };
}

/**
 * Checks the CLI arguments a task request adds to its template's. Nobody may pass ansible-playbook
 * the options that pick a connection, an inventory or a program to run. A task runner, or a webhook
 * caller's payload, may pass ansible, terraform, tofu and pulumi only the options listed above, each
 * value checked, and nothing that names a file outside the checkout; its arguments to a script
 * (bash, python, powershell, an admin's app) reach the script only, so they are its own.
 */
export function checkTaskArguments(app: string, args: readonly string[], untrusted: boolean): void {
  if (app === 'ansible') checkDeniedAnsibleOptions(args);
  const grammar = Object.hasOwn(GRAMMARS, app) ? GRAMMARS[app] : undefined;
  if (!untrusted || grammar === undefined) return;
  if (args.some((arg) => /\p{Cc}/u.test(arg))) throw validationFailed('CLI arguments cannot hold control characters');
  checkAllowedArguments(grammar, args);
}

/**
 * A task's ansible-playbook arguments apart from the more playbooks among them, which the runner
 * resolves inside the checkout when it runs the task: only there can it see a symbolic link in the
 * repository that leads elsewhere, and a bare `namespace.collection.playbook` word would run a
 * playbook installed outside it. Arguments a task runner could not pass (a manager's own) are the
 * manager's to choose and stay as they are.
 */
export function separateAnsiblePlaybooks(args: readonly string[]): { options: string[]; playbooks: string[] } {
  let read: ReturnType<typeof checkAllowedArguments>;
  try {
    read = checkAllowedArguments(ANSIBLE_GRAMMAR, args);
  } catch {
    return { options: [...args], playbooks: [] };
  }
  const words = new Set(read.words);
  return {
    options: args.filter((_, index) => !words.has(index) && index !== read.end),
    playbooks: args.filter((_, index) => words.has(index)),
  };
}
