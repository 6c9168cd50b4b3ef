import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';
import { choose, chooseMany, openDialog, submitAndClose } from '../support/ui.ts';

describe('workflows in the browser', () => {
  const gantry = useGantry();
  let page: Page;
  let projectId: number;

  beforeAll(async () => {
    ({ page, projectId } = await gantry.projectPage(
      'Workflows',
      { 'build.sh': 'echo building\n', 'deploy.sh': 'echo deploying\n' },
      { Build: { app: 'bash', playbook: 'build.sh' }, Deploy: { app: 'bash', playbook: 'deploy.sh' } },
    ));
  });

  const addStep = async (kind: 'Template' | 'Approval' | 'Wait', fill: () => Promise<void>) => {
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByRole('menuitem', { name: kind, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await fill();
    await submitAndClose(dialog, 'Apply');
  };

  const connect = async (from: string, to: string) => {
    const dialog = await openDialog(page, 'Connect steps');
    await choose(dialog, page, /^After step/, from);
    await choose(dialog, page, /^Start step/, to);
    await submitAndClose(dialog, 'Connect');
  };

  it('builds template → wait 1 s → template in the editor, saves it and runs it to success', async () => {
    await page.goto(`/project/${projectId}/workflows`);
    await page
      .getByRole('navigation', { name: 'Project navigation' })
      .getByRole('link', { name: 'Workflows' })
      .waitFor();
    await page.getByRole('button', { name: 'New workflow' }).click();
    await page.waitForURL(/\/workflows\/new$/);
    await page.getByRole('textbox', { name: 'Name' }).fill('Release');

    const dialog = page.getByRole('dialog');
    await addStep('Template', () => choose(dialog, page, /^Template/, 'Build'));
    await addStep('Wait', () => dialog.getByRole('textbox', { name: 'Wait (seconds)' }).fill('1'));
    await addStep('Template', () => choose(dialog, page, /^Template/, 'Deploy'));
    // Three start steps and no edge is a valid graph too; the two connections make it a chain.
    await connect('template_1', 'wait_1');
    await connect('wait_1', 'template_2');
    await page.getByText('template_1 → wait_1').waitFor();
    await page.getByText('wait_1 → template_2').waitFor();

    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/workflows\/\d+$/);
    await page.getByText('Workflow Release saved as revision 1').waitFor();
    const workflowId = Number(/\/workflows\/(\d+)$/.exec(page.url())?.[1]);
    const saved = await gantry.api<{ steps: unknown[]; edges: unknown[] }>(
      'GET',
      `/api/project/${projectId}/workflows/${workflowId}`,
    );
    expect(saved.steps).toHaveLength(3);
    expect(saved.edges).toEqual([
      { from: 'template_1', to: 'wait_1', on: 'success' },
      { from: 'wait_1', to: 'template_2', on: 'success' },
    ]);

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForURL(/\/workflows\/\d+\/runs\/\d+$/);
    for (const key of ['template_1', 'wait_1', 'template_2'])
      await page.getByRole('group', { name: `Step ${key}: Success` }).waitFor({ timeout: 30_000 });
    await page.getByRole('status').getByText('Success', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Stop run' }).count()).toBe(0);

    // A template step's log is one click away, in the task log dialog over the run.
    await page.getByRole('link', { name: 'Log of step template_2' }).click();
    await page.getByRole('dialog').getByText('deploying').first().waitFor();
  });

  it('builds template → approval → template in the editor, runs it, and an approver approves it from its link after sign-in', async () => {
    const approver = await gantry.createUser('wf-approver', { projectId, role: 'task_runner' });
    await page.goto(`/project/${projectId}/workflows/new`);
    await page.getByRole('textbox', { name: 'Name' }).fill('Approved deploy');
    const dialog = page.getByRole('dialog');
    await addStep('Template', () => choose(dialog, page, /^Template/, 'Build'));
    await addStep('Approval', () => chooseMany(dialog, page, 'Approvers', ['wf-approver user']));
    await addStep('Template', () => choose(dialog, page, /^Template/, 'Deploy'));
    await connect('template_1', 'approval_1');
    await connect('approval_1', 'template_2');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Workflow Approved deploy saved as revision 1').waitFor();

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForURL(/\/workflows\/\d+\/runs\/\d+$/);
    await page.getByRole('group', { name: 'Step template_1: Success' }).waitFor({ timeout: 30_000 });
    await page.getByRole('group', { name: 'Step approval_1: Waiting for approval' }).waitFor();
    // Who started the run is no approver of it: only the chosen approver may decide.
    expect(await page.getByRole('button', { name: 'Approve approval_1' }).count()).toBe(0);

    // The approver follows the run's link (what the approval alert sends) signed out: sign-in, then the run.
    const runPath = new URL(page.url()).pathname;
    const approverPage = await gantry.newPage();
    await approverPage.goto(runPath);
    await approverPage.waitForURL(/\/auth\/login/);
    await gantry.signIn(approverPage, { ...approver, waitForUrl: new RegExp(`${runPath}$`) });
    await approverPage.getByRole('button', { name: 'Approve approval_1' }).click();
    const decision = approverPage.getByRole('dialog');
    await decision.getByRole('textbox', { name: 'Reason' }).fill('Build looks right');
    await decision.getByRole('button', { name: 'Approve', exact: true }).click();
    await decision.waitFor({ state: 'detached' });
    await approverPage.context().close();

    // The starter's page follows the run to its end.
    await page.getByRole('group', { name: 'Step template_2: Success' }).waitFor({ timeout: 30_000 });
    await page.getByText(/approved \(.*\): Build looks right/).waitFor();
    await page.getByRole('status').getByText('Success', { exact: true }).waitFor();
  });

  it('refuses to delete a template a workflow runs, naming the workflow in the references dialog with a link', async () => {
    const templates = await gantry.api<Array<{ id: number; name: string }>>(
      'GET',
      `/api/project/${projectId}/templates`,
    );
    const build = templates.find((template) => template.name === 'Build');
    const workflows = await gantry.api<Array<{ id: number; name: string }>>(
      'GET',
      `/api/project/${projectId}/workflows`,
    );
    const release = workflows.find((workflow) => workflow.name === 'Release');
    await page.goto(`/project/${projectId}/templates/${build?.id}`);
    await page.getByRole('button', { name: 'Delete template' }).click();
    const inUse = page.getByRole('dialog', { name: 'Cannot delete' });
    const link = inUse.getByRole('link', { name: 'Release' });
    expect(await link.getAttribute('href')).toBe(`/project/${projectId}/workflows/${release?.id}`);
    await link.click();
    await page.waitForURL(new RegExp(`/workflows/${release?.id}$`));
    await page.getByRole('group', { name: 'Workflow graph' }).waitFor();
    expect((await gantry.api<{ id: number }>('GET', `/api/project/${projectId}/templates/${build?.id}`)).id).toBe(
      build?.id,
    );
  });

  it('shows the workflow to a guest without edit or run controls', async () => {
    const guest = await gantry.createUser('wf-guest', { projectId, role: 'guest' });
    const guestPage = await gantry.signedInPage({ ...guest, waitForUrl: /\/project\/\d+/ });
    await guestPage.goto(`/project/${projectId}/workflows`);
    await guestPage.getByRole('link', { name: 'Release' }).click();
    await guestPage.getByRole('group', { name: 'Step wait_1' }).waitFor();
    expect(await guestPage.getByRole('button', { name: 'New workflow' }).count()).toBe(0);
    for (const name of ['Save', 'Run', 'Add step'])
      expect(await guestPage.getByRole('button', { name, exact: true }).count()).toBe(0);
    await guestPage.context().close();
  });

  const startRun = async (definition: Record<string, unknown>) => {
    const workflow = await gantry.api<{ id: number }>('POST', `/api/project/${projectId}/workflows`, definition);
    const run = await gantry.api<{ id: number }>('POST', `/api/project/${projectId}/workflows/${workflow.id}/runs`, {});
    return `/project/${projectId}/workflows/${workflow.id}/runs/${run.id}`;
  };

  it('lets an approver approve a waiting approval step with a reason, after which the run goes on', async () => {
    const templates = await gantry.api<Array<{ id: number; name: string }>>(
      'GET',
      `/api/project/${projectId}/templates`,
    );
    const deploy = templates.find((template) => template.name === 'Deploy');
    await page.goto(
      await startRun({
        name: 'Gated',
        steps: [
          { key: 'gate', kind: 'approval', approvers: { roles: ['owner'] }, starter_may_approve: true },
          { key: 'ship', kind: 'template', template_id: deploy?.id },
        ],
        edges: [{ from: 'gate', to: 'ship', on: 'success' }],
      }),
    );
    await page.getByRole('group', { name: 'Step gate: Waiting for approval' }).waitFor();
    const dialog = await openDialog(page, 'Approve gate');
    // A decision needs a reason.
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await dialog.getByText('A reason is required').waitFor();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Release notes checked');
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(/approved \(.*\): Release notes checked/).waitFor();
    await page.getByRole('group', { name: 'Step ship: Success' }).waitFor({ timeout: 30_000 });
    await page.getByRole('status').getByText('Success', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Approve gate' }).count()).toBe(0);
  });

  it('stops a run from its page', async () => {
    await page.goto(await startRun({ name: 'Long wait', steps: [{ key: 'nap', kind: 'wait', seconds: 600 }] }));
    await page.getByRole('group', { name: 'Step nap: Running' }).waitFor();
    await page.getByRole('button', { name: 'Stop run' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Stop run' }).click();
    await page.getByRole('group', { name: 'Step nap: Stopped' }).waitFor();
    await page.getByRole('status').getByText('Stopped', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Stop run' }).waitFor({ state: 'detached' });
  });

  /** Drags with the mouse from the middle of one element onto the middle of another, in small moves. */
  const drag = async (from: Locator, to: Locator) => {
    const start = await from.boundingBox();
    const end = await to.boundingBox();
    if (!start || !end) throw new Error('Nothing to drag between');
    await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
    await page.mouse.down();
    await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 8 });
    await page.mouse.up();
  };

  it('connects steps by dragging a handle onto a step and from the keyboard, then counts the runs per day', async () => {
    await page.goto(`/project/${projectId}/workflows/new`);
    await page.getByRole('textbox', { name: 'Name' }).fill('Dragged');
    const dialog = page.getByRole('dialog');
    await addStep('Template', () => choose(dialog, page, /^Template/, 'Build'));
    await addStep('Wait', () => dialog.getByRole('textbox', { name: 'Wait (seconds)' }).fill('1'));
    await addStep('Template', () => choose(dialog, page, /^Template/, 'Deploy'));

    // Dropped on a step, the connection asks for its kind, the two steps chosen.
    await drag(
      page.getByRole('button', { name: 'Connect Step template_1 to a following step' }),
      page.getByRole('button', { name: 'Step wait_1', exact: true }),
    );
    await dialog
      .getByRole('combobox', { name: /^After step/ })
      .getByText('template_1')
      .waitFor();
    await dialog
      .getByRole('combobox', { name: /^Start step/ })
      .getByText('wait_1')
      .waitFor();
    await submitAndClose(dialog, 'Connect');
    await page.getByText('template_1 → wait_1').waitFor();

    // Dropped between the steps, nothing is connected.
    await drag(
      page.getByRole('button', { name: 'Connect Step wait_1 to a following step' }),
      page.getByRole('region', { name: 'Connections' }),
    );
    expect(await dialog.count()).toBe(0);

    // From the keyboard: Enter on the handle, then on the step that follows; the kind is chosen in the dialog.
    await page.getByRole('button', { name: 'Connect Step wait_1 to a following step' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Choose the step that follows Step wait_1').waitFor();
    await page.getByRole('button', { name: 'Step template_2', exact: true }).focus();
    await page.keyboard.press('Enter');
    await choose(dialog, page, /^When/, 'Always');
    await submitAndClose(dialog, 'Connect');
    await page.getByText('wait_1 → template_2').waitFor();

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Workflow Dragged saved as revision 1').waitFor();
    await page.waitForURL(/\/workflows\/\d+$/);
    const workflowId = Number(/\/workflows\/(\d+)$/.exec(page.url())?.[1]);
    const base = `/api/project/${projectId}/workflows/${workflowId}`;
    const saved = await gantry.api<{ edges: unknown[] }>('GET', base);
    expect(saved.edges).toEqual([
      { from: 'template_1', to: 'wait_1', on: 'success' },
      { from: 'wait_1', to: 'template_2', on: 'always' },
    ]);

    // The Runs tab charts the ended runs, and charts again when a listed run ends.
    const gated = await gantry.api<{ id: number }>('POST', `/api/project/${projectId}/workflows`, {
      name: 'Gated stats',
      steps: [{ key: 'gate', kind: 'approval', approvers: { roles: ['owner'] }, starter_may_approve: true }],
    });
    const gatedBase = `/api/project/${projectId}/workflows/${gated.id}`;
    const run = await gantry.api<{ id: number }>('POST', `${gatedBase}/runs`, {});
    await page.goto(`/project/${projectId}/workflows/${gated.id}?tab=runs`);
    await page.getByRole('link', { name: `#${run.id}` }).waitFor();
    await page.getByRole('img', { name: 'Finished runs per day: 0 successful, 0 failed, 0 stopped' }).waitFor();
    await gantry.api('POST', `${gatedBase}/runs/${run.id}/steps/gate/approve`, { reason: 'Counted' });
    await page.getByRole('img', { name: 'Finished runs per day: 1 successful, 0 failed, 0 stopped' }).waitFor();
  });
});
