import type { Generated, Selectable } from 'kysely';

export interface WorkflowTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  description: string;
  revision: number;
  created: string;
  updated: string;
}
export type WorkflowRow = Selectable<WorkflowTable>;

export interface WorkflowRevisionTable {
  id: Generated<number>;
  workflow_id: number;
  project_id: number;
  number: number;
  /** The WorkflowDefinition as JSON. */
  definition: string;
  user_id: number | null;
  created: string;
}
export type WorkflowRevisionRow = Selectable<WorkflowRevisionTable>;

export interface WorkflowTemplateTable {
  id: Generated<number>;
  workflow_id: number;
  project_id: number;
  template_id: number;
}
