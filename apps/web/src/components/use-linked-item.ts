import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router';

interface LinkedItemOptions<T> {
  items: readonly T[] | undefined;
  /** False until the caller knows whether the user may open items (the project role). */
  ready: boolean;
  canOpen: (item: T) => boolean;
  open: (item: T) => void;
  /** The list's own address, where closing the item leads; none for a list whose items have no address. */
  listPath: string | undefined;
}

/**
 * A reference link /project/{p}/{kind}/{id} (seed 001 section 2) is the list page with that item's
 * dialog open; closing the dialog goes back to the list's address. An item that is gone, or that
 * the user may not open, leaves just the list.
 */
export function useLinkedItem<T extends { id: number }>({
  items,
  ready,
  canOpen,
  open,
  listPath,
}: LinkedItemOptions<T>) {
  const { itemId } = useParams();
  const navigate = useNavigate();
  const openedFor = useRef<string | undefined>(undefined);

  useEffect(() => {
    // Back on the list: the same item linked again later opens again.
    if (itemId === undefined) openedFor.current = undefined;
    if (itemId === undefined || listPath === undefined || !items || !ready || openedFor.current === itemId) return;
    openedFor.current = itemId;
    const item = items.find((candidate) => String(candidate.id) === itemId);
    if (item && canOpen(item)) open(item);
    else void navigate(listPath, { replace: true });
  }, [itemId, items, ready, canOpen, open, listPath, navigate]);

  return {
    /** Call when the item's dialog closes. */
    leave: () => {
      if (itemId !== undefined && listPath !== undefined) void navigate(listPath, { replace: true });
    },
  };
}
