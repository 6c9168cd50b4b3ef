import type { Generated, Selectable } from 'kysely';

export interface ViewTable {
  id: Generated<number>;
  project_id: number;
  title: string;
  position: number;
}
export type ViewRow = Selectable<ViewTable>;
