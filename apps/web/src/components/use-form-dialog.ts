import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { DefaultValues, FieldValues, Resolver, SubmitErrorHandler } from 'react-hook-form';
import type { UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../lib/api-client.ts';

interface FormDialogOptions<TInput extends FieldValues, TValues, TVariables, TResult> {
  open: boolean;
  onClose: () => void;
  /** The dialog creates something: its button says Create rather than Save. */
  isNew?: boolean;
  /** The item the dialog edits: the form starts afresh when the dialog opens, or reopens for another item. */
  itemKey?: unknown;
  resolver: Resolver<TInput, unknown, TValues>;
  /** The values the form starts from each time it opens. */
  defaults: DefaultValues<NoInfer<TInput>>;
  mutation: UseMutationResult<TResult, Error, TVariables>;
  /** The request of a valid form; undefined stops there (a check on the way failed and said so). */
  toVariables: (values: TValues) => TVariables | undefined | Promise<TVariables | undefined>;
  /** After a save, as the dialog closes: tell the user, or hand the answer on. */
  onSaved?: (saved: { values: TValues; variables: TVariables; result: TResult }) => void;
  /** A submit the form refused (to show the tab with the first error). */
  onInvalid?: SubmitErrorHandler<TInput>;
  /** Anything else the dialog starts afresh when it opens. */
  onOpen?: () => void;
  /** Failures besides the save's (a list the form picks from did not load), shown when the save has none. */
  otherErrors?: readonly unknown[];
}

/**
 * The life of a form in a dialog: a fresh form and no old failure each time it opens, submit of a
 * valid form, close after a successful save. A failed save keeps the dialog open with the server's
 * message in it. `dialogProps` go to `FormDialog` as they are.
 */
export function useFormDialog<TInput extends FieldValues, TValues, TVariables, TResult>({
  open,
  onClose,
  isNew = false,
  itemKey,
  resolver,
  defaults,
  mutation,
  toVariables,
  onSaved,
  onInvalid,
  onOpen,
  otherErrors = [],
}: FormDialogOptions<TInput, TValues, TVariables, TResult>) {
  const { t } = useTranslation();
  const form = useForm<TInput, unknown, TValues>({ resolver, defaultValues: defaults });

  useEffect(() => {
    if (!open) return;
    form.reset(defaults);
    mutation.reset();
    onOpen?.();
  }, [open, itemKey]);

  const onSubmit = form.handleSubmit(async (values) => {
    const variables = await toVariables(values);
    if (variables === undefined) return;
    mutation.mutate(variables, {
      onSuccess: (result) => {
        onSaved?.({ values, variables, result });
        onClose();
      },
    });
  }, onInvalid);

  const failure = [mutation.error, ...otherErrors].find(Boolean);
  return {
    form,
    dialogProps: {
      form,
      open,
      onClose,
      onSubmit,
      submitLabel: isNew ? t('common.create') : t('common.save'),
      submitting: mutation.isPending,
      error: failure ? getErrorMessage(failure) : null,
    },
  };
}
