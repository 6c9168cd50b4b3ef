import { useQuery } from '@tanstack/react-query';
import type { QueryKey, UseMutationResult, UseQueryOptions } from '@tanstack/react-query';
import { Permission } from '@gantry/contract';
import type { ResourceRefs } from '@gantry/contract';
import { paths } from '../lib/paths.ts';
import type { ProjectPage } from '../lib/paths.ts';
import { useProjectAccess } from '../lib/shared-queries.ts';
import { useProjectId } from '../lib/use-project-id.ts';
import { useDialogState } from './use-dialog-state.ts';
import type { ItemTexts } from '../lib/item-texts.ts';
import { deleteTextsOf, useItemDelete } from './use-item-delete.ts';
import { useLinkedItem } from './use-linked-item.ts';

interface Row {
  id: number;
  name: string;
}

/** A kind of project resource as its list page knows it. */
export interface ResourceKind<T extends Row, TKey extends QueryKey> {
  /** The translation section: `title`, `empty` and the delete texts (`keys.title`, `keys.deleteTitle`...). */
  section: string;
  /** The translation key of the new button's label: the edit dialog's new title (ItemTexts). */
  texts: Pick<ItemTexts, 'newTitle'>;
  /** The query of the project's rows. */
  query: (projectId: number) => UseQueryOptions<T[], Error, T[], TKey>;
  /** The kind's DELETE mutation, called with the row's id. */
  useRemove: (projectId: number) => UseMutationResult<unknown, Error, number>;
  /** GET {row}/refs: what uses the row, shown before a delete; absent for rows nothing refers to. */
  loadRefs?: (projectId: number, id: number) => Promise<ResourceRefs>;
  /** The permission bits that manage the kind; project resources' by default. */
  permission?: number;
}

interface ResourceListOptions<T> {
  /** The list's page, when /project/{p}/{page}/{id} opens that row's dialog on it (useLinkedItem). */
  linkPage?: ProjectPage;
  /** Which rows such a link opens, for those who may manage the kind; every row by default. */
  canLink?: (row: T) => boolean;
}

/**
 * What a project resource's list page starts from: the project, the caller's access (and whether they
 * may manage the kind), its rows, the edit dialog (about one row, or a new one, opened by the row's
 * address too) and the rows' delete flow.
 */
export function useResourceList<T extends Row, TKey extends QueryKey>(
  kind: ResourceKind<T, TKey>,
  { linkPage, canLink = () => true }: ResourceListOptions<T> = {},
) {
  const { loadRefs } = kind;
  const projectId = useProjectId();
  const access = useProjectAccess(projectId);
  const canManage = access.can(kind.permission ?? Permission.manageProjectResources);
  const rows = useQuery(kind.query(projectId));
  const editDialog = useDialogState<T>();
  const linked = useLinkedItem({
    items: rows.data,
    ready: access.isReady,
    canOpen: (row) => canManage && canLink(row),
    open: editDialog.show,
    listPath: linkPage && paths.projectPage(projectId, linkPage),
  });
  const deletion = useItemDelete<Row>({
    projectId,
    texts: deleteTextsOf(kind.section),
    remove: kind.useRemove(projectId),
    loadRefs: loadRefs ? (id) => loadRefs(projectId, id) : undefined,
  });
  return {
    section: kind.section,
    texts: kind.texts,
    projectId,
    access,
    canManage,
    rows,
    // Closing a dialog that its address opened goes back to the list's address.
    editDialog: {
      ...editDialog,
      close: () => {
        editDialog.close();
        linked.leave();
      },
    },
    deletion,
  };
}
