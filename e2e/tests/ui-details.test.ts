import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitForTaskEnd } from '../support/api-client.ts';
import { useGantry } from '../support/gantry-fixture.ts';
import type { ScriptsProject } from '../support/scripts-project.ts';
import { choose, openDialog, seeText, submitAndSee, submitAndClose } from '../support/ui.ts';

describe('details a daily user trips on: live last task, form messages, the task log, refs before delete', () => {
  const gantry = useGantry();
  let page: Page;
  let scripts: ScriptsProject;
  let projectId = 0;
  let base = '';
  let apiBase = '';
  let templateId = 0;

  const waitForTask = (taskId: number) => waitForTaskEnd(gantry.api, projectId, taskId);

  beforeAll(async () => {
    scripts = await gantry.scriptsProject('Details', {
      'long.sh': 'for i in $(seq 1 400); do echo "line $i of the build"; done\necho "RESULT: all 400 steps passed"\n',
      'play.yml': '- hosts: all\n  tasks: []\n',
    });
    projectId = scripts.projectId;
    base = `/project/${projectId}`;
    apiBase = `/api/project/${projectId}`;
    templateId = await scripts.createTemplate('Long build', { app: 'bash', playbook: 'long.sh' });
    page = await gantry.signedInPage();
    await page.getByText('Details').first().waitFor();
  });

  it("the template list's last task follows a task started elsewhere (the API) without reload", async () => {
    await page.goto(`${base}/templates`);
    const row = page.getByRole('row').filter({ hasText: 'Long build' });
    await row.waitFor();
    const taskId = await gantry.startTask(projectId, templateId);
    await row.getByRole('link', { name: `#${taskId}` }).waitFor({ timeout: 10_000 });
    await waitForTask(taskId);
    await row.getByText('Success').waitFor({ timeout: 10_000 });
  });

  it('a finished task log opens at its end and keeps the position the user scrolls to', async () => {
    const taskId = await gantry.runTask(projectId, templateId);
    await page.goto(`${base}/history?t=${taskId}`);
    const log = page.getByRole('log');
    await log.getByText('RESULT: all 400 steps passed').waitFor();
    const atEnd = await log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    expect(atEnd).toBeLessThanOrEqual(25);
    expect(await page.getByRole('button', { name: 'Jump to bottom' }).count()).toBe(0);

    await log.evaluate((el) => {
      el.scrollTop = 2000;
    });
    await page.waitForTimeout(1000);
    expect(await log.evaluate((el) => el.scrollTop)).toBe(2000);
    await page.getByRole('button', { name: 'Jump to bottom' }).waitFor();
  });

  it('?t=<unknown id> shows only the error: no log pane, no download or fullscreen button', async () => {
    await page.goto(`${base}/history?t=987654`);
    const dialog = page.getByRole('dialog');
    await seeText(dialog, 'This task does not exist or was deleted.');
    expect(await dialog.getByRole('log').count()).toBe(0);
    expect(await dialog.getByRole('link', { name: 'Download raw log' }).count()).toBe(0);
    expect(await dialog.getByRole('button', { name: /fullscreen/i }).count()).toBe(0);
    expect((await dialog.boundingBox())?.height).toBeLessThan(300);
  });

  it('survey enum values and vaults say why the template cannot be saved', async () => {
    const [noneKey] = await gantry.api<Array<{ id: number }>>('GET', `${apiBase}/keys`);
    const inventory = await gantry.api<{ id: number }>('POST', `${apiBase}/inventory`, {
      name: 'local',
      type: 'static',
      inventory: 'localhost ansible_connection=local\n',
      ssh_key_id: noneKey?.id,
    });
    const playbook = await scripts.createTemplate('Playbook', {
      app: 'ansible',
      playbook: 'play.yml',
      inventory_id: inventory.id,
    });
    await page.goto(`${base}/templates/${playbook}/edit`);
    const dialog = await openDialog(page, 'Add variable');
    await dialog.getByLabel(/^Title/).fill('Region');
    await dialog.getByLabel(/^Name/).first().fill('region');
    await choose(dialog, page, 'Type', 'Enum');
    await dialog.getByRole('button', { name: 'Add value' }).click();
    await dialog.getByRole('button', { name: 'Add value' }).click();
    await dialog.getByLabel('Name of value 1').fill('eu');
    await submitAndSee(dialog, 'Save', ['Value name cannot be empty.']);
    await dialog.getByLabel('Name of value 2').fill('eu');
    await submitAndSee(dialog, 'Save', ['Enumeration values must have unique names.']);
    await dialog.getByLabel('Name of value 2').fill('us');
    await submitAndClose(dialog, 'Save');

    await page.getByRole('button', { name: 'Add vault' }).click();
    await page.getByRole('button', { name: 'Add vault' }).click();
    await submitAndSee(page, 'Save', ['Vault names must be unique; only one vault may have no name']);
    await page.getByRole('group', { name: 'Vault 1' }).getByLabel('Vault ID').fill('Prod/../x');
    await submitAndSee(page, 'Save', ['Vault name may only hold letters, digits, _, - and . (and not ..)']);
  });

  it('Activity reads events/last; deleting a schedule or an integration asks its refs first', async () => {
    const calls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith(apiBase)) calls.push(`${request.method()} ${url.pathname.slice(apiBase.length)}`);
    });
    await page.goto(`${base}/activity`);
    await page.getByRole('table').waitFor();
    expect(calls).toContain('GET /events/last');

    const schedule = await gantry.api<{ id: number }>('POST', `${apiBase}/schedules`, {
      name: 'Hourly build',
      template_id: templateId,
      cron_format: '0 * * * *',
    });
    await page.goto(`${base}/schedule`);
    await page.getByRole('button', { name: 'Delete Hourly build' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('cell', { name: 'Hourly build' }).waitFor({ state: 'detached' });
    expect(calls.filter((call) => call.includes(`/schedules/${schedule.id}`))).toEqual([
      `GET /schedules/${schedule.id}/refs`,
      `DELETE /schedules/${schedule.id}`,
    ]);

    const integration = await gantry.api<{ id: number }>('POST', `${apiBase}/integrations`, {
      name: 'Push hook',
      template_id: templateId,
    });
    await page.goto(`${base}/integrations`);
    await page.getByRole('button', { name: 'Delete Push hook' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('cell', { name: 'Push hook' }).waitFor({ state: 'detached' });
    expect(
      calls
        .filter((call) => call.startsWith('DELETE') || call.endsWith('/refs'))
        .filter((call) => call.includes(`/integrations/${integration.id}`)),
    ).toEqual([`GET /integrations/${integration.id}/refs`, `DELETE /integrations/${integration.id}`]);
  });
});
