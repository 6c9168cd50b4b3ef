import type { FieldError } from 'react-hook-form';

type ListErrors = { message?: unknown; root?: FieldError } | undefined;

/**
 * The message of a rule on a whole list field (unique names, at least one value). The zod resolver
 * files it under `root` once the list has rows, and on the list itself while it is empty.
 */
export function getListErrorMessage(errors: ListErrors): string | undefined {
  if (!errors) return undefined;
  if (typeof errors.root?.message === 'string') return errors.root.message;
  return typeof errors.message === 'string' ? errors.message : undefined;
}

/** The first message anywhere in a field's errors, for parts of a form that have no field of their own to show it at. */
export function getFirstErrorMessage(errors: unknown): string | undefined {
  if (typeof errors !== 'object' || errors === null) return undefined;
  if ('message' in errors && typeof errors.message === 'string' && errors.message) return errors.message;
  for (const [key, value] of Object.entries(errors)) {
    if (key === 'ref') continue;
    const found = getFirstErrorMessage(value);
    if (found) return found;
  }
  return undefined;
}
