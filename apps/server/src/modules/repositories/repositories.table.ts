import type { Generated, Selectable } from 'kysely';

export interface RepositoryTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  git_url: string;
  git_branch: string;
  ssh_key_id: number;
  created: string;
}
export type RepositoryRow = Selectable<RepositoryTable>;
