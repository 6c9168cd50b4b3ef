import { beforeAll, expect } from 'vitest';
import { addProjectMembers, createProjectFixture, type Member, type ProjectFixture } from './task-fixture.ts';
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

/**
 * What run tests do with the workflows of one project, as admin: `projectBase` is read at each call, since the
 * project is made in a beforeAll. Workflows are named "Workflow 1", "Workflow 2", and so on.
 */
export function createWorkflowCalls(t: TestApp, projectBase: () => string) {
  let workflowCount = 0;
  const runUrl = (workflowId: number) => `${projectBase()}/workflows/${workflowId}/runs`;

  async function startRun(workflowId: number, body?: unknown, as = t.adminCookie): Promise<RunDetail> {
    const started = await t.request('POST', runUrl(workflowId), { as, ...(body === undefined ? {} : { body }) });
    expect(started.status, started.text).toBe(201);
    return started.body as RunDetail;
  }

  /** Reads the run until it has ended, through `app` (another node of the store, say). */
  async function waitForRun(workflowId: number, runId: number, app = t): Promise<RunDetail> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const response = await app.request('GET', `${runUrl(workflowId)}/${runId}`, { as: app.adminCookie });
      expect(response.status, response.text).toBe(200);
      const run = response.body as RunDetail;
      if (run.status !== 'running') return run;
      if (Date.now() > deadline) throw new Error(`Run ${runId} did not end: ${response.text}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  return {
    /** Creates a workflow of these steps, edges and variables; returns its id. */
    async createWorkflow(steps: Step[], edges?: Edge[], variables?: unknown[]): Promise<number> {
      const created = await t.request('POST', `${projectBase()}/workflows`, {
        as: t.adminCookie,
        body: { name: `Workflow ${++workflowCount}`, steps, edges, variables },
      });
      expect(created.status, created.text).toBe(201);
      return (created.body as { id: number }).id;
    },
    startRun,
    waitForRun,
    async runToEnd(workflowId: number, body?: unknown): Promise<RunDetail> {
      return waitForRun(workflowId, (await startRun(workflowId, body)).id);
    },
  };
}

/** The scripts of a run test's project unless it names its own: a step that succeeds, one that fails, one that lasts. */
const RUN_SCRIPTS = { ok: 'echo ok\n', fail: 'exit 3\n', slow: 'sleep 300\n' };

/**
 * The projects of a run test, made in the describe block's first beforeAll with the workflow sweep begun: `p`
 * with a template per script of `scripts` (by default RUN_SCRIPTS; the script `ok` is ok.sh, run by the template
 * "Ok", with `templateFields.ok` if given), `other` holding `otherScripts` (by default an ok.sh), and a guest and a
 * task runner of `p` named from `members`; with createWorkflowCalls on `p`. As with useTestApp, the returned
 * objects are filled in then, so the tests use them as they are.
 */
export function useRunProjects<K extends string = keyof typeof RUN_SCRIPTS>(
  t: TestApp,
  setup: {
    scripts?: Record<K, string>;
    otherScripts?: Record<string, string>;
    members: string;
    templateFields?: Partial<Record<NoInfer<K>, Record<string, unknown>>>;
  },
) {
  const projects = {
    p: {} as ProjectFixture,
    other: {} as ProjectFixture,
    templates: {} as Record<K, number>,
    users: {} as Record<'guest' | 'runner', Member>,
  };
  beforeAll(async () => {
    t.runtime.services.workflowRuns.beginSweep();
    const scripts = Object.entries(setup.scripts ?? RUN_SCRIPTS) as [K, string][];
    const files = Object.fromEntries(scripts.map(([key, script]) => [`${key}.sh`, script]));
    Object.assign(projects.p, await createProjectFixture(t, files));
    Object.assign(projects.other, await createProjectFixture(t, setup.otherScripts ?? { 'ok.sh': 'echo other\n' }));
    for (const [key] of scripts)
      projects.templates[key] = await projects.p.createTemplate({
        name: key.charAt(0).toUpperCase() + key.slice(1),
        playbook: `${key}.sh`,
        ...setup.templateFields?.[key],
      });
    const roles = { guest: 'guest', runner: 'task_runner' };
    Object.assign(projects.users, await addProjectMembers(t, projects.p.base, setup.members, roles));
  });
  return { ...projects, ...createWorkflowCalls(t, () => projects.p.base) };
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
