import { expect } from 'vitest';
import type { ProjectFixture } from './task-fixture.ts';
import type { TestApp } from './test-app.ts';

/** A step of a run as GET .../runs/{run} answers it. */
export interface StepRun {
  key: string;
  status: string;
  task_id: number | null;
  message: string;
  due: string | null;
  start: string | null;
  end: string | null;
  outputs: Record<string, string>;
}

/** A run as GET .../runs/{run} answers it. */
export interface RunDetail {
  id: number;
  status: string;
  revision: number;
  user_id: number | null;
  variables: Record<string, string>;
  retry_of: number | null;
  retried_by: number | null;
  steps: StepRun[];
}

/** A step and an edge of a workflow definition as tests send them. */
export type Step = Record<string, unknown> & { key: string };
export type Edge = { from: string; to: string; on: 'success' | 'failure' | 'always' };

/** A guest and a task runner of the fixture's project, named from `prefix`. */
export async function addRunMembers(t: TestApp, p: ProjectFixture, prefix: string) {
  const users = { guest: { id: 0, cookie: '' }, runner: { id: 0, cookie: '' } };
  for (const [role, key] of [
    ['guest', 'guest'],
    ['task_runner', 'runner'],
  ] as const) {
    users[key] = await t.createUser(`${prefix}-${key}`);
    const added = await t.request('POST', `${p.base}/users`, {
      as: t.adminCookie,
      body: { user_id: users[key].id, role },
    });
    expect(added.status).toBe(204);
  }
  return users;
}
