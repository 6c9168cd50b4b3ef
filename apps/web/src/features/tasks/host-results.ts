import type { HostCounts, HostRecap, HostStatus } from '@gantry/contract';

type ChipColor = 'default' | 'success' | 'warning' | 'error' | 'info';

/** Colours of the statuses, as ansible's own output paints them (ok green, changed yellow, failed red). */
export const HOST_STATUS_COLORS: Record<HostStatus, ChipColor> = {
  ok: 'success',
  changed: 'warning',
  failed: 'error',
  unreachable: 'error',
  skipped: 'info',
  rescued: 'info',
  ignored: 'default',
};

const RECAP_ORDER = ['ok', 'changed', 'failed', 'unreachable'] as const;

/** The parts of a recap line ("12 ok · 3 changed · 1 failed"): statuses with hosts, in ansible's order. */
export function getRecapParts(recap: HostRecap | null): { status: keyof HostRecap; count: number }[] {
  if (!recap) return [];
  return RECAP_ORDER.filter((status) => recap[status] > 0).map((status) => ({ status, count: recap[status] }));
}

/** The statuses a host row shows: those with results, in the order of the contract. */
export function getCountParts(
  counts: HostCounts,
  statuses: readonly HostStatus[],
): { status: HostStatus; count: number }[] {
  return statuses.filter((status) => counts[status] > 0).map((status) => ({ status, count: counts[status] }));
}

/** A host's worst status, as the recap counts it. */
export function getHostOutcome(counts: HostCounts): keyof HostRecap {
  if (counts.unreachable > 0) return 'unreachable';
  if (counts.failed > 0) return 'failed';
  if (counts.changed > 0) return 'changed';
  return 'ok';
}

/** A task result's duration: milliseconds under a second, then seconds with one decimal, then minutes. */
export function formatResultDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}
