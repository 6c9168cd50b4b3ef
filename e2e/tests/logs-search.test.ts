import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';
import { saveShot } from '../support/browser.ts';

/** The line to find far down a log, so opening the log at it has to scroll. */
const DEPLOY_SCRIPT = [
  'for i in $(seq 1 120); do echo "copying file $i"; done',
  String.raw`printf '\033[31mfatal\033[0m: Disk-Quota exceeded on web01\n'`,
  'echo "cleaning up"',
  '',
].join('\n');

describe('search across the logs of a project', () => {
  const gantry = useGantry();
  let page: Page;
  let projectId: number;
  let deployTask: number;

  beforeAll(async () => {
    const setup = await gantry.projectPage(
      'Log search',
      { 'deploy.sh': DEPLOY_SCRIPT, 'quiet.sh': 'echo "nothing to see"\n' },
      { Deploy: { app: 'bash', playbook: 'deploy.sh' }, Quiet: { app: 'bash', playbook: 'quiet.sh' } },
    );
    ({ page, projectId } = setup);
    deployTask = await gantry.runTask(projectId, setup.templateIds.Deploy);
    await gantry.runTask(projectId, setup.templateIds.Quiet);
  }, 120_000);

  it('finds the task that printed a text, highlights the words, and a line opens the log at that line', async () => {
    // The server indexes a task's log once it has finished, in the background.
    await expect
      .poll(
        async () =>
          (
            await gantry.api<{ tasks: unknown[] }>(
              'GET',
              `/api/project/${projectId}/logs/search?q=${encodeURIComponent('disk quota')}`,
            )
          ).tasks.length,
        { timeout: 30_000, interval: 250 },
      )
      .toBe(1);
    await page.goto(`/project/${projectId}/history`);
    await page.getByRole('tab', { name: 'Search logs' }).click();
    await page.waitForURL(/\/project\/\d+\/logs$/);
    const form = page.getByRole('search', { name: 'Search the logs of finished tasks' });
    await form.getByRole('textbox', { name: 'Text' }).fill('disk quota');
    await form.getByRole('button', { name: 'Search' }).click();

    // The line's number as the log dialog counts it (1-based), found by the task's own log search.
    const inLog = await gantry.api<{ lines: number[] }>(
      'GET',
      `/api/project/${projectId}/tasks/${deployTask}/output/search?q=Disk-Quota`,
    );
    const line = (inLog.lines[0] ?? -10) + 1;

    const results = page.getByRole('region', { name: 'Search results' });
    const task = results.getByRole('article', { name: `#${deployTask}` });
    await task.waitFor();
    expect(await results.getByRole('article').count()).toBe(1);
    await task.getByText('Deploy', { exact: true }).waitFor();
    const match = task.locator('[data-match=true]');
    expect(await match.count()).toBe(1);
    // The text as the log shows it, without colour codes; the searched words marked, whatever their case.
    expect(await match.textContent()).toBe(`${line}fatal: Disk-Quota exceeded on web01`);
    expect(await match.locator('mark').allTextContents()).toEqual(['Disk', 'Quota']);
    // Two lines of context on each side.
    expect(
      await task.locator('[data-line]').evaluateAll((lines) => lines.map((l) => l.getAttribute('data-line'))),
    ).toEqual([-2, -1, 0, 1, 2].map((offset) => String(line + offset)));
    await saveShot(page, 'logs-search-1280');

    await match.click();
    await page.waitForURL(new RegExp(`[?&]t=${deployTask}&line=${line}$`));
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: `Task #${deployTask}` }).waitFor();
    const highlighted = page.locator('[role=log] [aria-current=true]');
    await expect.poll(() => highlighted.textContent(), { timeout: 10_000 }).toContain('Disk-Quota exceeded on web01');
    expect(await highlighted.isVisible()).toBe(true);
  });

  it('filters: no failed task printed it', async () => {
    await page.goto(`/project/${projectId}/logs`);
    const form = page.getByRole('search', { name: 'Search the logs of finished tasks' });
    await form.getByRole('textbox', { name: 'Text' }).fill('disk quota');
    await form.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Failed' }).click();
    await form.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No finished task printed this.').waitFor();
  });
});
