import type { KeyType } from '@gantry/contract';
import type { Generated, Selectable } from 'kysely';

export interface AccessKeyTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  type: KeyType;
  /** Encrypted JSON of the key material; null when none is stored. */
  secret: string | null;
  created: string;
}
export type AccessKeyRow = Selectable<AccessKeyTable>;
