import { TaskParams } from '@gantry/contract';
import { validationFailed } from '../../errors.ts';

/** Task parameters that are lists, and those that are switches, as the task API takes them. */
const LIST_PARAMS = new Set(['limit', 'tags', 'skip_tags']);
const SWITCH_PARAMS = new Set([
  'debug',
  'dry_run',
  'diff',
  'plan',
  'destroy',
  'auto_approve',
  'upgrade',
  'reconfigure',
]);
const SWITCH_VALUES: Readonly<Record<string, boolean>> = { true: true, '1': true, false: false, '0': false, '': false };

/**
 * A value a webhook extracted (always text) as the task parameter it is mapped to: a list parameter
 * (limit, tags) takes it as one element, a switch takes true/false/1/0, anything else the text. A
 * switch given another word is refused rather than guessed at.
 */
function toTaskParam(name: string, text: string): unknown {
  if (LIST_PARAMS.has(name)) return [text];
  if (!SWITCH_PARAMS.has(name)) return text;
  const value = SWITCH_VALUES[text.trim().toLowerCase()];
  if (value === undefined)
    throw validationFailed(`Task parameter ${name} takes true or false, not ${JSON.stringify(text)}`);
  return value;
}

/** The integration's stored task parameters with the extracted values mapped to parameters, checked as the task API checks them. */
export function withExtractedParams(
  stored: Record<string, unknown>,
  extracted: ReadonlyMap<string, string>,
): TaskParams {
  const params: Record<string, unknown> = { ...stored };
  for (const [name, text] of extracted) params[name] = toTaskParam(name, text);
  const parsed = TaskParams.safeParse(params);
  if (!parsed.success)
    throw validationFailed(`Task parameters do not fit the template: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}
