import type { Selectable } from 'kysely';

export interface AppTable {
  id: string;
  active: number;
  priority: number;
  title: string;
  icon: string;
  color: string;
  dark_color: string;
  path: string;
  /** JSON array of extra arguments. */
  args: string;
}
export type AppRow = Selectable<AppTable>;
