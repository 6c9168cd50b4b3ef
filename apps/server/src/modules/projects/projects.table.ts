import type { ProjectRoleSlug } from '@gantry/contract';
import type { Generated, Selectable } from 'kysely';

export interface ProjectTable {
  id: Generated<number>;
  name: string;
  created: string;
  alert: number;
  alert_chat: string | null;
  max_parallel_tasks: number;
  type: string;
}
export type ProjectRow = Selectable<ProjectTable>;

export interface ProjectUserTable {
  id: Generated<number>;
  project_id: number;
  user_id: number;
  role: ProjectRoleSlug;
  created: string;
}
export type ProjectUserRow = Selectable<ProjectUserTable>;
