import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';

type TaskRow = { id: number; status: string };

describe('templates that need approval in the browser', () => {
  const gantry = useGantry();
  let page: Page;
  let projectId: number;
  let templateId: number;
  let gatedId: number;

  beforeAll(async () => {
    ({
      page,
      projectId,
      templateIds: { Ship: templateId, 'Ship gated': gatedId },
    } = await gantry.projectPage(
      'Gated',
      { 'ship.sh': 'echo shipped-after-approval\n' },
      {
        Ship: { app: 'bash', playbook: 'ship.sh' },
        'Ship gated': {
          app: 'bash',
          playbook: 'ship.sh',
          approval: { approvers: { roles: ['owner'] }, starter_may_approve: true },
        },
      },
    ));
  });

  it('puts an approval gate on a template from its form', async () => {
    await page.goto(`/project/${projectId}/templates/${templateId}/edit`);
    await page.getByLabel('Tasks need approval before they run').check();
    await page.getByRole('combobox', { name: 'Approver roles' }).click();
    await page.getByRole('option', { name: 'Owner', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByLabel('The user who started the task may approve').check();
    await page.getByRole('textbox', { name: 'Timeout (seconds)' }).fill('7200');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/templates\/\d+\/tasks$/);
    const template = await gantry.api<{ approval: unknown }>(
      'GET',
      `/api/project/${projectId}/templates/${templateId}`,
    );
    expect(template.approval).toEqual({
      approvers: { user_ids: [], roles: ['owner'] },
      required: 1,
      starter_may_approve: true,
      timeout_seconds: 7200,
      on_timeout: 'reject',
    });
  });

  it('lets an approver approve a waiting task with a reason in its log, after which it runs', async () => {
    const task = await gantry.api<TaskRow>('POST', `/api/project/${projectId}/tasks`, { template_id: gatedId });
    expect(task.status).toBe('waiting_approval');
    await page.goto(`/project/${projectId}/history?t=${task.id}`);
    const log = page.getByRole('dialog');
    await log.getByText('Waiting for approval', { exact: true }).first().waitFor();
    await log.getByRole('button', { name: 'Approve', exact: true }).click();
    const reason = page.getByRole('dialog', { name: `Approve task #${task.id}?` });
    // A decision needs a reason.
    await reason.getByRole('button', { name: 'Approve', exact: true }).click();
    await reason.getByText('A reason is required').waitFor();
    await reason.getByRole('textbox', { name: 'Reason' }).fill('Change window open');
    await reason.getByRole('button', { name: 'Approve', exact: true }).click();
    await reason.waitFor({ state: 'detached' });
    await log
      .getByRole('list', { name: 'Decisions' })
      .getByText(/admin approved \(.*\): Change window open/)
      .waitFor();
    await log.getByText('shipped-after-approval').waitFor({ timeout: 30_000 });
    await log.getByText('Approved', { exact: true }).waitFor();
    expect(await log.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
    const done = await gantry.api<TaskRow>('GET', `/api/project/${projectId}/tasks/${task.id}`);
    expect(done.status).toBe('success');
  });
});
