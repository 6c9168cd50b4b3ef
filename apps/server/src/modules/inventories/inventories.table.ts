import type { InventoryType } from '@gantry/contract';
import type { Generated, Selectable } from 'kysely';

export interface InventoryTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  type: InventoryType;
  inventory: string;
  ssh_key_id: number | null;
  become_key_id: number | null;
  repository_id: number | null;
  template_id: number | null;
  created: string;
}
export type InventoryRow = Selectable<InventoryTable>;
