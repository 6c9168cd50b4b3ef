import { closeSync, constants } from 'node:fs';
import { NAME_PATTERN, OUTPUT_LIMITS, parseJsonObject, type TaskOutputs } from '@gantry/contract';
import { openRegularFile, readAtMost } from './regular-file.ts';
import { REDACTED } from './redact.ts';
import type { TaskWorkspace } from './workspace.ts';

/** The variable naming the file a task writes its outputs to (docs/workflows.md, "Outputs"). */
export const OUTPUTS_VARIABLE = 'GANTRY_OUTPUTS';

/** How `pulumi stack output --json` shows a secret output without --show-secrets, which Gantry never passes. */
const PULUMI_SECRET = '[secret]';

/** How each tool prints its outputs as one JSON object: names for its log lines, and the value of one entry. */
const TOOL_FORMS = {
  // `terraform output -json`: {name: {value, sensitive, type}}; anything else (a hand-made tool's null) is no output.
  terraform: {
    label: 'Terraform output',
    unreadable: 'The terraform outputs could not be read',
    valueOf(entry: unknown): { value: unknown } | undefined {
      if (typeof entry !== 'object' || entry === null) return undefined;
      const fields = entry as Record<string, unknown>;
      return { value: fields.sensitive === true ? REDACTED : fields.value };
    },
  },
  // `pulumi stack output --json`: {name: value}.
  pulumi: {
    label: 'Pulumi output',
    unreadable: 'The pulumi stack outputs could not be read',
    valueOf: (entry: unknown): { value: unknown } => ({ value: entry === PULUMI_SECRET ? REDACTED : entry }),
  },
};
export type ToolOutputForm = keyof typeof TOOL_FORMS;

/** Problems logged one by one; past this many, one line counts the rest. */
const MAX_PROBLEM_LINES = 20;

const describe = (value: unknown): string =>
  typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value);

/**
 * Gathers the outputs of one task from wherever they come (its file, ansible's set_stats, terraform),
 * masking secrets as the log does and keeping to OUTPUT_LIMITS. A bad entry is left out with a problem
 * that names where it was, never its value.
 */
export function createOutputCollector(redact: (text: string) => string) {
  const values = new Map<string, string>();
  const problems: string[] = [];

  function add(name: string, value: unknown, where: string): void {
    if (!NAME_PATTERN.test(name)) {
      problems.push(`${where}: not a valid output name (a letter or _, then at most 63 letters, digits, _ or -)`);
      return;
    }
    const text = describe(value);
    if (text.length > OUTPUT_LIMITS.valueLength) {
      problems.push(`${where}: the value of ${name} is longer than ${OUTPUT_LIMITS.valueLength} characters`);
      return;
    }
    if (!values.has(name) && values.size >= OUTPUT_LIMITS.maxOutputs) {
      problems.push(`${where}: more than ${OUTPUT_LIMITS.maxOutputs} outputs; ${name} is left out`);
      return;
    }
    values.set(name, redact(text).slice(0, OUTPUT_LIMITS.valueLength));
  }

  /** A JSON object of outputs: each member is one, strings as they are, other values as JSON. */
  function addObject(text: string, where: string): void {
    const parsed = parseJsonObject(text);
    if (!parsed) {
      problems.push(`${where}: not a JSON object`);
      return;
    }
    for (const [name, value] of Object.entries(parsed)) add(name, value, where);
  }

  return {
    add,
    /** The file's lines: `name=value`, or a JSON object on one line; empty lines and # comments are skipped. */
    addFileText(text: string): void {
      text.split('\n').forEach((raw, index) => {
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        const where = `Output line ${index + 1}`;
        if (line.trim() === '' || line.trimStart().startsWith('#')) return;
        if (line.trimStart().startsWith('{')) return addObject(line, where);
        const equals = line.indexOf('=');
        if (equals < 0) problems.push(`${where}: expected name=value`);
        else add(line.slice(0, equals).trim(), line.slice(equals + 1), where);
      });
    },
    /** A tool's outputs as it prints them (terraform's or pulumi's form); secrets it marks are kept masked whole. */
    addToolOutputs(text: string, form: ToolOutputForm): void {
      const { label, unreadable, valueOf } = TOOL_FORMS[form];
      const parsed = parseJsonObject(text);
      if (!parsed) {
        problems.push(unreadable);
        return;
      }
      for (const [name, entry] of Object.entries(parsed)) {
        const where = `${label} ${NAME_PATTERN.test(name) ? name : ''}`.trim();
        const output = valueOf(entry);
        if (output) add(name, output.value, where);
        else problems.push(`${where}: not an output`);
      }
    },
    problem(text: string): void {
      problems.push(text);
    },
    /** The log lines telling what was left out, bounded. */
    problemLines(): string[] {
      if (problems.length <= MAX_PROBLEM_LINES) return [...problems];
      return [...problems.slice(0, MAX_PROBLEM_LINES), `${problems.length - MAX_PROBLEM_LINES} more output problems`];
    },
    result(): TaskOutputs {
      return Object.fromEntries(values);
    },
  };
}
export type OutputCollector = ReturnType<typeof createOutputCollector>;

/** The empty 0600 outputs file of a task in its private directory. */
export function createOutputsFile(workspace: Pick<TaskWorkspace, 'writePrivateFile'>): string {
  return workspace.writePrivateFile('outputs', '');
}

/**
 * Reads the task's outputs file into the collector: only the file Gantry made (a symlink, FIFO or
 * device put there since is not read), at most OUTPUT_LIMITS.fileBytes of it.
 */
export function readOutputsFile(file: string, outputs: OutputCollector): void {
  const fd = openRegularFile(file, constants.O_NOFOLLOW);
  if (fd === undefined) return;
  let text: string;
  let cut = false;
  try {
    const { bytes, more } = readAtMost(fd, OUTPUT_LIMITS.fileBytes);
    cut = more;
    text = bytes.toString('utf8');
  } catch {
    return;
  } finally {
    closeSync(fd);
  }
  if (cut) {
    // The last line read may be the start of a longer one: it is left out with the rest.
    text = text.slice(0, Math.max(0, text.lastIndexOf('\n')));
    outputs.problem(`The outputs file is larger than ${OUTPUT_LIMITS.fileBytes} bytes; the rest was not read`);
  }
  outputs.addFileText(text);
}
