import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';
import { openDialog } from '../support/ui.ts';

describe('stopping every waiting task of a flooded queue', () => {
  const gantry = useGantry();
  let page: Page;
  let projectId: number;
  let templateId: number;

  const rowsWithStatus = (on: Page, status: string) =>
    on.getByRole('row').filter({ has: on.getByText(status, { exact: true }) });

  const taskStatus = async (taskId: number) =>
    (await gantry.api<{ status: string }>('GET', `/api/project/${projectId}/tasks/${taskId}`)).status;
  /** Starts a task of the holding template and waits until it runs; returns its id. */
  const startRunningTask = async () => {
    const taskId = await gantry.startTask(projectId, templateId);
    await expect.poll(() => taskStatus(taskId), { timeout: 20_000 }).toBe('running');
    return taskId;
  };

  beforeAll(async () => {
    ({
      page,
      projectId,
      templateIds: { Holder: templateId },
    } = await gantry.projectPage(
      'Flooded',
      { 'hold.sh': 'echo holding\nsleep 120\n' },
      // One at a time: the first task holds the template, the others queue behind it.
      { Holder: { app: 'bash', playbook: 'hold.sh' } },
    ));
  });

  it('stops the waiting tasks from the history after a confirmation and leaves the running one alone', async () => {
    const runningId = await startRunningTask();
    for (let i = 0; i < 3; i++) await gantry.startTask(projectId, templateId);

    await page.goto(`/project/${projectId}/history`);
    await expect.poll(() => rowsWithStatus(page, 'Waiting').count()).toBe(3);
    const dialog = await openDialog(page, 'Stop waiting tasks');
    await dialog.getByText('3 waiting tasks will be stopped before they start.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Stop tasks' }).click();

    await page.getByText('3 waiting tasks stopped').waitFor();
    await expect.poll(() => rowsWithStatus(page, 'Stopped').count()).toBe(3);
    expect(await rowsWithStatus(page, 'Running').count()).toBe(1);
    // Nothing waits any more, so the button goes away.
    await page.getByRole('button', { name: 'Stop waiting tasks' }).waitFor({ state: 'detached' });
    expect(await taskStatus(runningId)).toBe('running');
    await gantry.api('POST', `/api/project/${projectId}/tasks/${runningId}/stop`, { force: true });
  });

  it('does not offer the button to a guest, while the template Tasks tab offers it to the admin', async () => {
    const guest = await gantry.createUser('watcher', { projectId, role: 'guest' });
    const runningId = await startRunningTask();
    await gantry.startTask(projectId, templateId);

    const guestPage = await gantry.signedInPage({ ...guest, waitForUrl: /\/project\/\d+\/history/ });
    await guestPage.goto(`/project/${projectId}/history`);
    await expect.poll(() => rowsWithStatus(guestPage, 'Waiting').count()).toBe(1);
    expect(await guestPage.getByRole('button', { name: 'Stop waiting tasks' }).count()).toBe(0);
    // The admin, who may run tasks, is offered it for the same queue on the template's Tasks tab too.
    await page.goto(`/project/${projectId}/templates/${templateId}/tasks`);
    await page.getByRole('button', { name: 'Stop waiting tasks' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Stop tasks' }).click();
    await page.getByText('1 waiting tasks stopped').waitFor();
    await expect.poll(() => rowsWithStatus(guestPage, 'Waiting').count()).toBe(0);
    await guestPage.context().close();
    await gantry.api('POST', `/api/project/${projectId}/tasks/${runningId}/stop`, { force: true });
  });
});
