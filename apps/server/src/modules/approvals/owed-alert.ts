import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { OwedAlert } from '../alerts/alert.ts';

/** How long a node has to send an approval alert it claimed before a sweep sends it again. */
const SEND_LEASE_MS = 60_000;

/** Where a subject keeps the time its approval alert is owed from (a task, a workflow approval step). */
export interface OwedAlertStore {
  /** Moves the owed time from `owed` to `lease` while the subject waits; false when it moved on or was taken. */
  claim(owed: string, lease: string): Promise<boolean>;
  /** Clears the owed time if it is still `lease` (the alert is sent). */
  clear(lease: string): Promise<void>;
}

/** The alert owed since `owed`: claiming it moves its time a lease ahead, so a crash mid-send is sent again after. */
export function createOwedAlert(store: OwedAlertStore, owed: string, clock: Clock): OwedAlert {
  let lease: string | undefined;
  return {
    async claim() {
      lease = toTimestamp(new Date(clock.now().getTime() + SEND_LEASE_MS));
      return store.claim(owed, lease);
    },
    async sent() {
      if (lease !== undefined) await store.clear(lease);
    },
  };
}
