import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ItemTexts } from '../lib/item-texts.ts';
import { useSnackbar } from './snackbar-provider.tsx';
import { useFormDialog } from './use-form-dialog.ts';

type FormDialogOptions<TInput extends FieldValues, TValues, TVariables, TResult> = Parameters<
  typeof useFormDialog<TInput, TValues, TVariables, TResult>
>[0];
type SavedItem<TValues, TVariables, TResult> = { values: TValues; variables: TVariables; result: TResult };

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
