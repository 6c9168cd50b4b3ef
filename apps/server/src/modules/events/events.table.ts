import type { Generated, Selectable } from 'kysely';

export interface EventTable {
  id: Generated<number>;
  created: string;
  user_id: number | null;
  project_id: number | null;
  object_id: number | null;
  object_type: string | null;
  object_name: string;
  description: string;
}
export type EventRow = Selectable<EventTable>;
