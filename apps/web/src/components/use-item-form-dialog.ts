import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from './snackbar-provider.tsx';
import { useFormDialog } from './use-form-dialog.ts';

type FormDialogOptions<TInput extends FieldValues, TValues, TVariables, TResult> = Parameters<
  typeof useFormDialog<TInput, TValues, TVariables, TResult>
>[0];
type SavedItem<TValues, TVariables, TResult> = { values: TValues; variables: TVariables; result: TResult };

/**
 * The translation keys of an item dialog: its title for a new item and for an existing one, and the
 * message after a save, which is given the item's name.
 */
export interface ItemTexts {
  newTitle: string;
  editTitle: string;
  created: string;
  saved: string;
}

/**
 * The texts most kinds keep in their own section, for a kind named `noun` there:
 * `keys.newKey`, `keys.editKey`, `keys.created`, `keys.saved`.
 */
export const itemTextsOf = (section: string, noun: string): ItemTexts => ({
  newTitle: `${section}.new${noun}`,
  editTitle: `${section}.edit${noun}`,
  created: `${section}.created`,
  saved: `${section}.saved`,
});

type ItemFormDialogOptions<TInput extends FieldValues, TValues, TVariables, TResult> = Omit<
  FormDialogOptions<TInput, TValues, TVariables, TResult>,
  'isNew' | 'itemKey' | 'onSaved'
> & {
  /** The item the dialog edits; none for a new one. */
  item: { id: number | string } | undefined;
  texts: ItemTexts;
  /** The saved item's name, for the message. */
  nameOf: (saved: SavedItem<TValues, TVariables, TResult>) => string;
};

/**
 * A dialog that creates an item or edits one: its title says which, its form starts afresh for each
 * item, and a save is told in a green snackbar that names the item.
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
  return { ...dialog, dialogProps: { ...dialog.dialogProps, title: t(isNew ? texts.newTitle : texts.editTitle) } };
}
