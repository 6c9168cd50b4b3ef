import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';
import { choose, chooseMany, openDialog, seeText, submitAndSee, submitAndClose } from '../support/ui.ts';

interface ScheduleRow {
  id: number;
  name: string;
  cron_format: string;
  active: boolean;
  repository_id: number | null;
}

describe('schedules and integrations, the ways a template starts by itself', () => {
  const gantry = useGantry();
  let page: Page;
  let projectId: number;
  let templateId: number;

  beforeAll(async () => {
    ({
      page,
      projectId,
      templateIds: { Deploy: templateId },
    } = await gantry.projectPage(
      'Triggers',
      { 'deploy.sh': 'echo "deploying $EVENT"\n' },
      { Deploy: { app: 'bash', playbook: 'deploy.sh' } },
      { clipboard: true },
    ));
  });

  it('creates a schedule with the timing picker and shows its cron in the table', async () => {
    await page.goto(`/project/${projectId}/schedule`);
    await seeText(page, 'No schedules yet.');
    const dialog = await openDialog(page, 'New schedule');
    await submitAndSee(dialog, 'Create', ['Name is required', 'Template is required']);

    await dialog.getByLabel(/^Name/).fill('Nightly');
    await choose(dialog, page, /^Template/, 'Deploy');
    await seeText(dialog, 'Server time zone: UTC');
    await choose(dialog, page, /^Timing/, 'Daily');
    await chooseMany(dialog, page, 'Hours', ['03h']);
    await chooseMany(dialog, page, 'Minutes', [':30']);
    // The server computes the next runs of "30 3 * * *": every one at 03:30.
    const runs = dialog.getByRole('list', { name: 'Next runs' });
    await expect.poll(async () => (await runs.getByRole('listitem').allTextContents()).length).toBe(5);
    for (const run of await runs.getByRole('listitem').allTextContents()) expect(run).toMatch(/03:30/);

    await dialog.getByRole('button', { name: 'Cron expression' }).click();
    expect(await dialog.getByLabel(/^Cron/).inputValue()).toBe('30 3 * * *');
    await dialog.getByRole('button', { name: 'Timing' }).click();
    expect(await dialog.getByRole('combobox', { name: /^Timing/ }).textContent()).toBe('Daily');

    await submitAndClose(dialog, 'Create');
    const row = page.getByRole('row').filter({ hasText: 'Nightly' });
    await row.getByText('30 3 * * *', { exact: true }).waitFor();
    await row.getByRole('link', { name: 'Deploy' }).waitFor();
    const [saved] = await gantry.api<ScheduleRow[]>('GET', `/api/project/${projectId}/schedules`);
    expect(saved).toMatchObject({ name: 'Nightly', cron_format: '30 3 * * *', active: true, repository_id: null });
  });

  it('shows the server refusing a raw cron expression and keeps the dialog open', async () => {
    const dialog = await openDialog(page, 'Edit Nightly');
    await dialog.getByRole('button', { name: 'Cron expression' }).click();
    const cron = dialog.getByLabel(/^Cron/);
    await cron.fill('');
    await submitAndSee(dialog, 'Save', ['Cron required']);
    await cron.fill('0 25 * * *');
    await submitAndSee(dialog, 'Save', [/^Cron: /]);
    expect(await dialog.isVisible()).toBe(true);
    await cron.fill('0 */6 * * 1-5');
    await submitAndClose(dialog, 'Save');
    await page.getByRole('row').filter({ hasText: 'Nightly' }).getByText('0 */6 * * 1-5').waitFor();
  });

  it('saves the active switch at once', async () => {
    const toggle = page.getByRole('switch', { name: 'Active: Nightly' });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click();
    await expect
      .poll(async () => (await gantry.api<ScheduleRow[]>('GET', `/api/project/${projectId}/schedules`))[0]?.active)
      .toBe(false);
    await page.reload();
    expect(await page.getByRole('switch', { name: 'Active: Nightly' }).isChecked()).toBe(false);
  });

  it("expands a row to the template's last tasks", async () => {
    await page.getByRole('button', { name: 'Show the last tasks of Nightly' }).click();
    await seeText(page, '—');
    expect(
      await page.getByRole('button', { name: 'Hide the last tasks of Nightly' }).getAttribute('aria-expanded'),
    ).toBe('true');
  });

  it('adds a run-on-new-commit schedule from the template form', async () => {
    await page.goto(`/project/${projectId}/templates/${templateId}/edit`);
    await seeText(page, 'This template has a time-based schedule');
    await gantry.api(
      'DELETE',
      `/api/project/${projectId}/schedules/${(await gantry.api<ScheduleRow[]>('GET', `/api/project/${projectId}/schedules`))[0]?.id}`,
    );
    await page.reload();
    await page.getByLabel('Run this template when the repository has a new commit').check();
    await choose(page, page, /^Check interval/, 'every 10 minutes');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/templates\/\d+\/tasks$/);
    const schedules = await gantry.api<ScheduleRow[]>('GET', `/api/project/${projectId}/schedules`);
    expect(schedules).toHaveLength(1);
    expect(schedules[0]).toMatchObject({ name: 'Deploy', cron_format: '*/10 * * * *', active: true });
    expect(schedules[0]?.repository_id).not.toBeNull();
    await page.goto(`/project/${projectId}/schedule`);
    await page.getByRole('row').filter({ hasText: 'on new commit in scripts' }).getByText('*/10 * * * *').waitFor();
  });

  it('creates an integration with a matcher and copies its alias URL', async () => {
    await page.goto(`/project/${projectId}/integrations`);
    await seeText(page, 'No integrations yet.');
    let dialog = await openDialog(page, 'New integration');
    expect((await dialog.boundingBox())?.width).toBe(450);
    await submitAndSee(dialog, 'Create', ['Name is required']);
    await seeText(dialog, 'Template is required');
    await dialog.getByLabel(/^Name/).fill('Push hook');
    await choose(dialog, page, /^Template/, 'Deploy');
    await submitAndClose(dialog, 'Create');

    await page.getByRole('link', { name: 'Push hook' }).click();
    await page.waitForURL(/\/integrations\/\d+$/);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Integrations' }).waitFor();
    await seeText(page, 'There is no aliases.');

    dialog = await openDialog(page, 'New matcher');
    await submitAndSee(dialog, 'Create', [
      'Name is required',
      'Match source is required',
      'Comparison method is required',
      'Value is required',
    ]);
    await dialog.getByLabel(/^Name/).fill('push events');
    await choose(dialog, page, /^Match source/, 'Body');
    await submitAndSee(dialog, 'Create', ['Body data format is required']);
    await choose(dialog, page, /^Match source/, 'Header');
    await dialog.getByLabel(/^Header name/).fill('X-Event');
    await choose(dialog, page, /^Comparison method/, 'Equals');
    await dialog.getByLabel(/^Value/).fill('push');
    await submitAndClose(dialog, 'Create');
    await page
      .getByRole('region', { name: 'Matchers' })
      .getByRole('cell', { name: 'push events', exact: true })
      .waitFor();

    await page.getByRole('region', { name: 'Alias URLs' }).getByRole('button', { name: 'Add alias' }).click();
    const aliasUrl = page.getByRole('list', { name: 'Alias URLs' }).locator('code');
    await aliasUrl.waitFor();
    const url = await aliasUrl.textContent();
    expect(url).toMatch(/\/api\/integrations\/[A-Za-z0-9_-]+$/);
    await page.getByRole('button', { name: `Copy ${url}` }).click();
    await seeText(page, 'The alias URL has been copied to the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    // The copied URL is the live webhook: a matching request starts the template.
    const hook = await fetch(new URL(new URL(url ?? '').pathname, gantry.server.url), {
      method: 'POST',
      headers: { 'X-Event': 'push' },
      body: '{}',
    });
    expect(hook.status).toBe(204);
    await expect
      .poll(
        async () =>
          (await gantry.api<unknown[]>('GET', `/api/project/${projectId}/templates/${templateId}/tasks/last?limit=5`))
            .length,
      )
      .toBe(1);
  });

  it('turns the global alias switch on and lists project alias URLs', async () => {
    const globalSwitch = page.getByRole('switch', { name: /Reachable through the project alias URLs/ });
    // The switch saves at once; it is briefly disabled while a save is under way.
    await expect.poll(() => globalSwitch.isEnabled()).toBe(true);
    await globalSwitch.click();
    await expect.poll(() => globalSwitch.isChecked()).toBe(true);
    await expect
      .poll(
        async () =>
          (await gantry.api<Array<{ searchable: boolean }>>('GET', `/api/project/${projectId}/integrations`))[0]
            ?.searchable,
      )
      .toBe(true);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('row').filter({ hasText: 'Push hook' }).getByText('Yes').waitFor();
    const projectAliases = page.getByRole('region', { name: 'Project alias URLs' });
    await projectAliases.getByRole('button', { name: 'Add alias' }).click();
    await projectAliases.locator('code').waitFor();
    await projectAliases.getByRole('button', { name: /^Delete alias / }).click();
    await seeText(projectAliases, 'There is no aliases.');
  });
  it('lets a manager run the schedules but shows integrations to them without actions', async () => {
    const manager = await gantry.createUser('max', { projectId, role: 'manager' });
    const managerPage = await gantry.newPage();
    try {
      await gantry.signIn(managerPage, { ...manager, waitForUrl: /\/project\/\d+\/history/ });
      await managerPage.goto(`/project/${projectId}/schedule`);
      await managerPage.getByRole('button', { name: 'New schedule' }).waitFor();
      expect(await managerPage.getByRole('switch').first().isEnabled()).toBe(true);

      await managerPage.goto(`/project/${projectId}/integrations`);
      await managerPage.getByRole('link', { name: 'Push hook' }).click();
      await managerPage
        .getByRole('region', { name: 'Matchers' })
        .getByRole('cell', { name: 'push events', exact: true })
        .waitFor();
      await managerPage.getByRole('button', { name: /^Copy http/ }).waitFor();
      for (const name of ['New matcher', 'New value', 'Add alias', 'Edit', 'Delete']) {
        expect(await managerPage.getByRole('button', { name, exact: true }).count(), name).toBe(0);
      }
      expect(
        await managerPage.getByRole('switch', { name: /Reachable through the project alias URLs/ }).isDisabled(),
      ).toBe(true);
    } finally {
      await managerPage.context().close();
    }
  });
});
