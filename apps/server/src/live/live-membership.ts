import type { Clock } from '../clock.ts';

export interface LiveMembershipOptions {
  listMemberIds(projectId: number): Promise<number[]>;
  clock: Clock;
  /** A project's members are read again after this long, for changes this node was never told about. */
  refreshMs?: number;
}

/**
 * Who is a member of the projects whose live events flow through this node, checked for every event
 * without touching the store. Team changes update it at once (a removed member stops receiving that
 * project's events with the next event) and reload the project's members; entries are also reloaded
 * now and then, which covers changes made where nobody told this node.
 */
export function createLiveMembership(options: LiveMembershipOptions) {
  const refreshMs = options.refreshMs ?? 30_000;
  const entries = new Map<number, { members: Set<number>; loadedAt: number }>();
  /** The newest load of each project in flight: an older one that ends later must not win. */
  const loading = new Map<number, number>();
  /** Members removed while the project had no entry yet, until the load started after that lands. */
  const removedBeforeLoad = new Map<number, Set<number>>();
  let loads = 0;

  function load(projectId: number): void {
    const generation = ++loads;
    loading.set(projectId, generation);
    options.listMemberIds(projectId).then(
      (ids) => {
        if (loading.get(projectId) !== generation) return;
        loading.delete(projectId);
        removedBeforeLoad.delete(projectId);
        entries.set(projectId, { members: new Set(ids), loadedAt: options.clock.now().getTime() });
      },
      () => {
        // The store was unreachable: the next event tries again.
        if (loading.get(projectId) === generation) loading.delete(projectId);
      },
    );
  }

  return {
    /**
     * Whether a user may see a project's events. `known` is who the publisher found to be members
     * when the task started; it is used only until this node has read the project itself.
     */
    isMember(projectId: number, userId: number, known: ReadonlySet<number>): boolean {
      const entry = entries.get(projectId);
      if ((!entry || options.clock.now().getTime() - entry.loadedAt > refreshMs) && !loading.has(projectId))
        load(projectId);
      if (entry) return entry.members.has(userId);
      return known.has(userId) && !removedBeforeLoad.get(projectId)?.has(userId);
    },

    /** A project's team changed (on this node or another); a removed member loses access at once. */
    changed(projectId: number, removedUserId?: number): void {
      if (removedUserId !== undefined) {
        const entry = entries.get(projectId);
        if (entry) entry.members.delete(removedUserId);
        else removedBeforeLoad.set(projectId, (removedBeforeLoad.get(projectId) ?? new Set()).add(removedUserId));
      }
      load(projectId);
    },
  };
}

export type LiveMembership = ReturnType<typeof createLiveMembership>;
