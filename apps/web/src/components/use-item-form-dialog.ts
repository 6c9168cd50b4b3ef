import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from './snackbar-provider.tsx';
import { useFormDialog } from './use-form-dialog.ts';

type FormDialogOptions<TInput extends FieldValues, TValues, TVariables, TResult> = Parameters<
  typeof useFormDialog<TInput, TValues, TVariables, TResult>
>[0];
type SavedItem<TValues, TVariables, TResult> = { values: TValues; variables: TVariables; result: TResult };

/** The translation keys of the message shown after a save; each is given the item's name. */
interface SavedTexts {
  created: string;
  saved: string;
}

/** The texts most kinds keep in their own section: `keys.created`, `keys.saved`. */
export const savedTextsOf = (section: string): SavedTexts => ({
  created: `${section}.created`,
  saved: `${section}.saved`,
});

type ItemFormDialogOptions<TInput extends FieldValues, TValues, TVariables, TResult> = Omit<
  FormDialogOptions<TInput, TValues, TVariables, TResult>,
  'isNew' | 'itemKey' | 'onSaved'
> & {
  /** The item the dialog edits; none for a new one. */
  item: { id: number | string } | undefined;
  texts: SavedTexts;
  /** The saved item's name, for the message. */
  nameOf: (saved: SavedItem<TValues, TVariables, TResult>) => string;
};

/**
 * A dialog that creates an item or edits one: its form starts afresh for each item, and a save is
 * told in a green snackbar that names the item.
 */
export function useItemFormDialog<TInput extends FieldValues, TValues, TVariables, TResult>({
  item,
  texts,
  nameOf,
  ...options
}: ItemFormDialogOptions<TInput, TValues, TVariables, TResult>) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const isNew = item === undefined;
  const dialog = useFormDialog({
    ...options,
    isNew,
    itemKey: item?.id,
    onSaved: (saved) => snackbar.showSuccess(t(isNew ? texts.created : texts.saved, { name: nameOf(saved) })),
  });
  return { ...dialog, isNew };
}
