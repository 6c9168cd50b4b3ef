import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';

describe('project backup, restore and the demo project', () => {
  const gantry = useGantry({ GANTRY_DEMO_MODE: 'true' });
  let page: Page;
  let projectId: number;

  beforeAll(async () => {
    projectId = (await gantry.api<{ id: number }>('POST', '/api/projects', { name: 'Backed up' })).id;
    await gantry.api('POST', `/api/project/${projectId}/keys`, {
      name: 'deploy',
      type: 'login_password',
      login_password: { login: 'ci', password: 'e2e-Secret-42' },
    });
    await gantry.api('POST', `/api/project/${projectId}/views`, { title: 'Release' });

    page = await gantry.signedInPage({ waitForUrl: /\/project\/\d+\/history/ });
  });

  it('shows the demo mode banner when the server runs in demo mode', async () => {
    await page.getByText(/^Demo mode:/).waitFor();
  });

  let backupFile = '';

  it('downloads a backup named with the project id and time, with a progress bar and "Project exported."', async () => {
    await page.goto(`/project/${projectId}/settings`);
    const started = Date.now();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 15_000 }),
      page.getByRole('button', { name: 'Backup' }).click(),
    ]);
    expect(await page.getByRole('progressbar', { name: 'Exporting the project' }).isVisible()).toBe(true);
    // The seed's one-second pause comes before the download starts.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^gantry-project-${projectId}-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}Z\\.json$`),
    );
    backupFile = (await download.path()) ?? '';
    const backup = JSON.parse(readFileSync(backupFile, 'utf8')) as {
      meta: { name: string };
      keys: { name: string }[];
      views: { title: string }[];
    };
    expect(backup.meta.name).toBe('Backed up');
    expect(backup.keys.map((k) => k.name).sort()).toEqual(['None', 'deploy']);
    expect(backup.views).toEqual([{ title: 'Release', position: 0 }]);
    expect(readFileSync(backupFile, 'utf8')).not.toContain('e2e-Secret-42');
    await page.getByText('Project exported.').waitFor();
    expect(await page.getByRole('progressbar', { name: 'Exporting the project' }).count()).toBe(0);
  });

  it('restores the backup under a new name and shows the restore result dialog', async () => {
    await page.goto('/project/restore');
    await page.getByRole('button', { name: 'Restore', exact: true }).click();
    // Lazy validation blocks the request: both fields are required.
    await page.getByText('Backup file is required').waitFor();

    await page.getByLabel('Project name').fill('Restored copy');
    await page.getByLabel('Backup file').setInputFiles(backupFile);
    await page.getByRole('button', { name: 'Restore', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Project restored' });
    await dialog.getByText('Project Restored copy has been restored.').waitFor();
    expect(await dialog.getByText(/Empty keys added: 1\./).isVisible()).toBe(true);
    expect(await dialog.getByText(/Please update the access keys before running tasks\./).isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Open keys' }).click();
    await page.waitForURL(/\/project\/\d+\/keys$/);
    expect(Number(/\/project\/(\d+)\//.exec(page.url())?.[1])).not.toBe(projectId);
    await page.getByText('deploy', { exact: true }).first().waitFor();
  });

  it('refuses a file that is not a backup without creating anything', async () => {
    const before = (await gantry.api<unknown[]>('GET', '/api/projects')).length;
    await page.goto('/project/restore');
    await page.getByLabel('Project name').fill('Broken');
    await page.getByLabel('Backup file').setInputFiles({
      name: 'broken.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"meta": {"name": "x"}, "templates": [{"name": 1}]}'),
    });
    await page.getByRole('button', { name: 'Restore', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /templates\.0\.name/ })
      .waitFor();
    await page
      .getByLabel('Backup file')
      .setInputFiles({ name: 'truncated.json', mimeType: 'application/json', buffer: Buffer.from('{"meta": {"na') });
    await page.getByRole('button', { name: 'Restore', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'The file is not a JSON project backup' }).waitFor();
    expect((await gantry.api<unknown[]>('GET', '/api/projects')).length).toBe(before);
  });

  it('lets the keyboard choose the backup file: Tab reaches the button and Enter opens the file picker', async () => {
    await page.goto('/project/restore');
    await page.getByLabel('Project name').fill('Chosen by keyboard');
    // Record the click that opens the browser's file picker, and keep the picker itself closed.
    await page.getByLabel('Backup file').evaluate((input) =>
      input.addEventListener('click', (event) => {
        event.preventDefault();
        input.setAttribute('data-picker-opened', 'true');
      }),
    );
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Choose backup file');
    await page.keyboard.press('Enter');
    expect(await page.getByLabel('Backup file').getAttribute('data-picker-opened')).toBe('true');
  });

  it('creates the demo project and runs its Bash template to success', async () => {
    await page.goto('/project/new');
    await page.getByLabel('Project name').fill('Demo');
    await page.getByRole('button', { name: 'Create demo project' }).click();
    await page.waitForURL(/\/project\/\d+\/templates/);
    await page.getByRole('button', { name: 'Run Bash: hello' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Run' }).click();
    await page.waitForURL(/[?&]t=\d+/);
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Success', { exact: true }).waitFor({ timeout: 30_000 });
    await page.locator('[role=log] .log-text', { hasText: 'Hello from the Gantry demo project!' }).waitFor();
  });
});
