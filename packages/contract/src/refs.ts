import { z } from 'zod';
import { Id } from './common.ts';

const RefItem = z.object({ id: Id, name: z.string() });

/** What uses a resource; a resource with any reference cannot be deleted. */
export const ResourceRefs = z.object({
  templates: z.array(RefItem),
  inventories: z.array(RefItem),
  repositories: z.array(RefItem),
  integrations: z.array(RefItem),
  schedules: z.array(RefItem),
  workflows: z.array(RefItem),
});
export type ResourceRefs = z.infer<typeof ResourceRefs>;

/** A resource nothing uses. */
export const emptyRefs = (): ResourceRefs => ({
  templates: [],
  inventories: [],
  repositories: [],
  integrations: [],
  schedules: [],
  workflows: [],
});

export const IN_USE_MESSAGE = (what: string) => `${what} is in use and cannot be deleted`;
