import { z } from 'zod';
import { taskEndpoint } from './endpoint.ts';

/** Names of workflow variables, step keys and outputs: they appear in YAML and in the environment of tasks. */
export const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/**
 * Bounds of the named values a task publishes (docs/workflows.md, "Outputs"): a value becomes a
 * survey value of a later step, so it has a survey value's bound; the file a task writes is read
 * only this far.
 */
export const OUTPUT_LIMITS = {
  maxOutputs: 50,
  valueLength: 4096,
  fileBytes: 1024 * 1024,
} as const;

/** A task's published outputs, name to value, secrets already masked. */
export const TaskOutputs = z
  .record(
    z
      .string()
      .regex(NAME_PATTERN, 'Output names must start with a letter or _ and hold at most 64 letters, digits, _ or -'),
    z.string().max(OUTPUT_LIMITS.valueLength),
  )
  .refine((outputs) => Object.keys(outputs).length <= OUTPUT_LIMITS.maxOutputs, {
    message: `A task publishes at most ${OUTPUT_LIMITS.maxOutputs} outputs`,
  });
export type TaskOutputs = z.infer<typeof TaskOutputs>;

export const taskOutputsApi = {
  /** The outputs a task published (secrets masked); empty for a task that published none. */
  list: taskEndpoint('/outputs', { method: 'GET', response: z.object({ outputs: TaskOutputs }) }),
};
