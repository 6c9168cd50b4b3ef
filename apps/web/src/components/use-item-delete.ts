import type { UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ResourceRefs } from '@gantry/contract';
import { useResourceDelete } from './resource-delete.tsx';
import { useSnackbar } from './snackbar-provider.tsx';

/** The translation keys of a kind's delete texts; each is given the item's name. */
interface DeleteTexts {
  title: string;
  confirm: string;
  deleted: string;
}

/** The delete texts most kinds keep in their own section: `keys.deleteTitle`, `keys.deleteConfirm`, `keys.deleted`. */
export const deleteTextsOf = (section: string): DeleteTexts => ({
  title: `${section}.deleteTitle`,
  confirm: `${section}.deleteConfirm`,
  deleted: `${section}.deleted`,
});

interface Item {
  id: number | string;
}

/** An item's name for the texts: its `name`, unless the kind names its items otherwise. */
type Naming<T> = T extends { name: string } ? { nameOf?: (item: T) => string } : { nameOf: (item: T) => string };

type ItemDeleteOptions<T extends Item> = Naming<T> & {
  /** The project the in-use dialog links into. */
  projectId: number;
  texts: DeleteTexts;
  /** The DELETE mutation, called with the item's id. */
  remove: UseMutationResult<unknown, Error, T['id']>;
  /** GET {item}/refs; absent for items nothing can refer to. */
  loadRefs?: (id: T['id']) => Promise<ResourceRefs>;
};

/**
 * Deleting one item of a list: the shared delete flow (what uses it, confirm, delete) with the kind's
 * texts, and a green snackbar naming the deleted item.
 */
export function useItemDelete<T extends Item>(options: ItemDeleteOptions<T>) {
  const { projectId, texts, remove, loadRefs } = options;
  const nameOf = (item: T): string => options.nameOf?.(item) ?? String((item as { name?: unknown }).name);
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const deletion = useResourceDelete(projectId);

  /** Asks for the item's delete; `onDeleted` runs once it is deleted (to leave its page). */
  const request = (item: T, onDeleted?: () => void) => {
    const name = nameOf(item);
    void deletion.request({
      name,
      title: t(texts.title),
      message: t(texts.confirm, { name }),
      loadRefs: loadRefs ? () => loadRefs(item.id) : undefined,
      remove: () => remove.mutateAsync(item.id),
      onDeleted: () => {
        snackbar.showSuccess(t(texts.deleted, { name }));
        onDeleted?.();
      },
    });
  };

  /** The item's delete button waits: its references are being checked or its delete is under way. */
  const isDeleting = (item: T) => deletion.checking || (remove.isPending && remove.variables === item.id);

  return {
    nameOf,
    request,
    isDeleting,
    /** Some delete of the list is being checked or under way. */
    busy: deletion.checking || remove.isPending,
    element: deletion.element,
  };
}
