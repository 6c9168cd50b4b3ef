import type { ResourceRefs } from '@gantry/contract';
import { ErrorCode } from '@gantry/contract';
import { AppError } from '../../errors.ts';

/** Refuses to delete something still in use, naming every user of it. */
export function assertUnused(what: string, refs: ResourceRefs): void {
  const parts = Object.entries(refs)
    .filter(([, items]) => items.length > 0)
    .map(([kind, items]) => `${kind} ${items.map((i) => `"${i.name}"`).join(', ')}`);
  if (parts.length > 0)
    throw new AppError(400, ErrorCode.inUse, `${what} cannot be deleted because it is used by ${parts.join('; ')}`);
}
