import type { EnvironmentSecretType } from '@gantry/contract';
import type { Generated, Selectable } from 'kysely';

export interface EnvironmentTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  json: string;
  env: string;
  /** Encrypted legacy vault password from a Semaphore backup; null when there is none. */
  password: string | null;
  created: string;
}
export type EnvironmentRow = Selectable<EnvironmentTable>;

export interface EnvironmentSecretTable {
  id: Generated<number>;
  project_id: number;
  environment_id: number;
  type: EnvironmentSecretType;
  name: string;
  /** Encrypted value. */
  secret: string;
}
export type EnvironmentSecretRow = Selectable<EnvironmentSecretTable>;
