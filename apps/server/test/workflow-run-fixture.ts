import { expect } from 'vitest';
import { addProjectMembers, type ProjectFixture } from './task-fixture.ts';
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
export function addRunMembers(t: TestApp, p: ProjectFixture, prefix: string) {
  return addProjectMembers(t, p.base, prefix, { guest: 'guest', runner: 'task_runner' });
}

/**
 * A one-step workflow in the project `other`, running a new template of its `playbook`: what a workflow of
 * one project may not be started from another. Returns its id.
 */
export async function createWorkflowElsewhere(t: TestApp, other: ProjectFixture, playbook: string): Promise<number> {
  const otherTemplate = await other.createTemplate({ name: 'Other', playbook });
  const created = await t.request('POST', `${other.base}/workflows`, {
    as: t.adminCookie,
    body: { name: 'Elsewhere', steps: [{ key: 'a', kind: 'template', template_id: otherTemplate }] },
  });
  expect(created.status, created.text).toBe(201);
  return (created.body as { id: number }).id;
}
