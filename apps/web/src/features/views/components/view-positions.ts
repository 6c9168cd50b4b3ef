/** A view in the edit dialog: saved views have a positive id and the position the server holds. */
export interface PositionedView {
  id: number;
  position: number;
}

/** The list with one item moved from one index to another. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || from >= items.length || to < 0 || to >= items.length) return [...items];
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}

/**
 * The positions to send after a reorder: each saved view's index in the new order, for the views
 * whose index differs from the position the server holds. Unsaved views (negative ids) are left out.
 */
export function computeChangedPositions(ordered: readonly PositionedView[]): Record<string, number> {
  const changes: Record<string, number> = {};
  ordered.forEach((view, index) => {
    if (view.id > 0 && view.position !== index) changes[String(view.id)] = index;
  });
  return changes;
}
