import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';
import { saveShot } from '../support/browser.ts';

/** The texts of the log lines on screen. */
const logLines = (page: Page) => page.locator('[role=log] .log-text').allTextContents();

describe('tasks, as a user runs and watches them', () => {
  const gantry = useGantry();
  let page: Page;
  let projectId: number;
  let templates: Record<string, number>;

  beforeAll(async () => {
    const setup = await gantry.projectPage(
      'Tasks',
      {
        'ticker.sh': 'for i in $(seq 1 25); do echo "tick $i"; sleep 0.2; done\n',
        'chatty.sh': 'for i in $(seq 1 600); do echo "line $i"; sleep 0.01; done\n',
        'sleeper.sh': 'echo "going to sleep"\nsleep 120\necho "woke up"\n',
        'colours.sh': 'printf "\\033[31mred\\033[0m \\033[1;92mbright green\\033[0m plain\\n"\n',
        'fake-terraform': {
          executable: true,
          content:
            '#!/bin/sh\nif [ "$1" = show ]; then echo \'{"resource_changes":[{"address":"null_resource.web","change":{"actions":["create"]}}]}\'; exit 0; fi\n' +
            'echo "terraform $1"\nif [ "$1" = plan ]; then echo "Plan: 1 to add."; exit 2; fi\nif [ "$1" = apply ]; then echo "Apply complete!"; fi\nexit 0\n',
        },
      },
      {
        Ticker: { app: 'bash', playbook: 'ticker.sh' },
        Chatty: { app: 'bash', playbook: 'chatty.sh' },
        Sleeper: { app: 'bash', playbook: 'sleeper.sh', allow_parallel_tasks: true },
        Colours: { app: 'bash', playbook: 'colours.sh' },
        Infra: { app: 'terraform', playbook: '' },
      },
    );
    ({ page, projectId, templateIds: templates } = setup);
    await gantry.api('PUT', '/api/apps/terraform', { path: path.join(setup.project.dir, 'fake-terraform') });
  });

  /** Runs the template from the history page's ?new_task dialog and waits until its task opens. */
  async function runFromHistory(template: string): Promise<void> {
    await page.goto(`/project/${projectId}/history?new_task=${templates[template]}`);
    await page.getByRole('dialog').getByRole('button', { name: 'Run' }).click();
    await page.waitForURL(/[?&]t=\d+/);
  }

  it('runs a template from ?new_task and watches its log arrive live, then the history row turns to Success by itself', async () => {
    await page.goto(`/project/${projectId}/history?new_task=${templates.Ticker}`);
    const form = page.getByRole('dialog');
    await form.getByLabel('Message (optional)').fill('first run');
    await form.getByRole('button', { name: 'Run' }).click();
    await page.waitForURL(/[?&]t=\d+/);
    const taskId = new URL(page.url()).searchParams.get('t');
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Task #${taskId}`).waitFor();

    // Lines show up while the task still runs.
    await page.locator('[role=log] .log-text', { hasText: 'tick 3' }).waitFor();
    expect(await dialog.getByText('Running', { exact: true }).isVisible()).toBe(true);
    await dialog.getByText('Success', { exact: true }).waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await logLines(page)).at(-1)).toBe('Task finished successfully.');
    const ticks = (await logLines(page)).filter((line) => line.startsWith('tick '));
    expect(ticks).toEqual(Array.from({ length: 25 }, (_, i) => `tick ${i + 1}`));

    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.has('t')).toBe(false);
    const row = page.getByRole('row').filter({ hasText: `#${taskId}` });
    await expect.poll(() => row.getByText('Success').isVisible()).toBe(true);
    expect(await row.getByText('first run').isVisible()).toBe(true);
  });

  it('shows a task started elsewhere in the history without a reload', async () => {
    await page.goto(`/project/${projectId}/history`);
    await page.getByRole('table').waitFor();
    const taskId = await gantry.startTask(projectId, templates.Colours ?? 0, { message: 'from the API' });
    const row = page.getByRole('row').filter({ hasText: `#${taskId}` });
    await expect.poll(() => row.getByText('Success').isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await row.getByText('from the API').isVisible()).toBe(true);
  });

  it('renders ANSI colours in the log', async () => {
    const row = page.getByRole('row').filter({ hasText: 'from the API' });
    await row.getByRole('link', { name: /^#\d+$/ }).click();
    const red = page.locator('[role=log] .ansi-fg-1', { hasText: 'red' });
    await red.waitFor();
    expect(await page.locator('[role=log] .ansi-fg-10.ansi-bold').textContent()).toBe('bright green');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  });

  it('follows the tail until the user scrolls up, and jumps back to it on request', async () => {
    await runFromHistory('Chatty');
    const log = page.locator('[role=log]');
    await expect
      .poll(async () => Number(await log.getAttribute('data-line-count')), { timeout: 20_000 })
      .toBeGreaterThan(100);
    const distanceToBottom = () => log.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop);
    // The view follows within a frame of each batch: a snapshot taken as a batch lands may be a few lines
    // short, and a loaded machine (the whole suite in CI) takes longer than the poll's default second.
    const settled = { timeout: 10_000 };
    await expect.poll(distanceToBottom, settled).toBeLessThan(20);

    await log.hover();
    await page.mouse.wheel(0, -400);
    const jump = page.getByRole('button', { name: 'Jump to bottom' });
    await jump.waitFor();
    const top = await log.evaluate((el) => el.scrollTop);
    await page.waitForTimeout(500);
    // New lines keep coming; the view stays where the user put it.
    expect(Math.abs((await log.evaluate((el) => el.scrollTop)) - top)).toBeLessThan(2);
    await jump.click();
    await page.getByRole('dialog').getByText('Success', { exact: true }).waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await logLines(page)).at(-1)).toBe('Task finished successfully.');
    await expect.poll(distanceToBottom, settled).toBeLessThan(20);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  });

  it('stops a running task', async () => {
    await runFromHistory('Sleeper');
    const dialog = page.getByRole('dialog');
    await page.locator('[role=log] .log-text', { hasText: 'going to sleep' }).waitFor({ timeout: 20_000 });
    await dialog.getByRole('button', { name: 'Stop', exact: true }).click();
    await dialog.getByText('Stopped', { exact: true }).waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await logLines(page)).at(-1)).toBe('Task stopped.');
    expect(await dialog.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'ReRun' }).isVisible()).toBe(true);
  });

  it('re-runs a finished task from its log, with the form filled from it', async () => {
    await page.goto(`/project/${projectId}/history`);
    const row = page.getByRole('row').filter({ hasText: 'first run' });
    await row.getByRole('link', { name: /^#\d+$/ }).click();
    const sourceId = new URL(page.url()).searchParams.get('t');
    await page.getByRole('dialog').getByRole('button', { name: 'ReRun' }).click();
    await page.waitForURL(/new_task=\d+/);
    const form = page.getByRole('dialog');
    expect(await form.getByLabel('Message (optional)').inputValue()).toBe('first run');
    await form.getByRole('button', { name: 'ReRun' }).click();
    await page.waitForURL(/[?&]t=\d+/);
    const newId = new URL(page.url()).searchParams.get('t');
    expect(Number(newId)).toBeGreaterThan(Number(sourceId));
    await page.getByRole('dialog').getByText('Success', { exact: true }).waitFor({ timeout: 20_000 });
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  });

  it('confirms a terraform plan waiting for confirmation', async () => {
    await runFromHistory('Infra');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Waiting confirmation', { exact: true }).waitFor({ timeout: 20_000 });
    expect(await dialog.getByRole('button', { name: 'Reject' }).isVisible()).toBe(true);
    // The decision is taken on the plan's list of changes, which the dialog opens on.
    await dialog.getByLabel('Resources the plan changes').getByText('null_resource.web').waitFor();
    expect(await dialog.getByLabel('Plan changes', { exact: true }).textContent()).toBe(
      '1 to add · 0 to change · 0 to destroy',
    );
    await saveShot(page, 'task-plan-1280');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText('Success', { exact: true }).waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await logLines(page)).some((line) => line.includes('Apply complete!'))).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Confirm' }).count()).toBe(0);
  });
});
