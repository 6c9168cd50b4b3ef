import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';
import { saveShot, shotsFolder } from '../support/browser.ts';

/** A log long enough to scroll, with three "needle" lines far apart, colour, a link and an error. */
const NOISY_SCRIPT = [
  'echo "plain first line"',
  String.raw`printf '\033[31mred alert line\033[0m\n'`,
  'echo "docs at https://example.com/docs for help"',
  'for i in 1 2 3; do',
  '  for j in $(seq 1 30); do echo "filler $i.$j"; done',
  '  echo "needle $i"',
  'done',
  'echo "ERROR: the deploy failed"',
  'echo "after the error"',
  '',
].join('\n');

describe('the task log: search, links to lines, line actions, first error', () => {
  const gantry = useGantry();
  let page: Page;
  let projectId: number;
  let noisyTask: number;
  let cleanTask: number;

  /** The 1-based number of the one line of a task's log containing `text`, found by the API. */
  const lineOf = async (taskId: number, text: string) => {
    const found = await gantry.api<{ count: number; lines: number[] }>(
      'GET',
      `/api/project/${projectId}/tasks/${taskId}/output/search?q=${encodeURIComponent(text)}`,
    );
    expect(found.count).toBe(1);
    return (found.lines[0] ?? -1) + 1;
  };
  const openLog = async (taskId: number, line?: number) => {
    await page.goto(`/project/${projectId}/history?t=${taskId}${line === undefined ? '' : `&line=${line}`}`);
    await page.locator('[role=log] .log-line:not(.log-line--pending)').first().waitFor();
  };
  const highlighted = () => page.locator('[role=log] [aria-current=true]');
  const searchStatus = () => page.getByRole('search').getByRole('status');

  beforeAll(async () => {
    const setup = await gantry.projectPage(
      'Log reading',
      { 'noisy.sh': NOISY_SCRIPT, 'clean.sh': 'echo "all good"\n' },
      { Noisy: { app: 'bash', playbook: 'noisy.sh' }, Clean: { app: 'bash', playbook: 'clean.sh' } },
      { clipboard: true },
    );
    ({ page, projectId } = setup);
    noisyTask = await gantry.runTask(projectId, setup.templateIds.Noisy);
    cleanTask = await gantry.runTask(projectId, setup.templateIds.Clean);
  });

  it('Ctrl+F searches the whole log; Enter and Shift+Enter move the highlighted line', async () => {
    await openLog(noisyTask);
    await page.keyboard.press('Control+f');
    const input = page.getByRole('textbox', { name: 'Search in the log' });
    await input.waitFor();
    await input.pressSequentially('needle');
    await expect.poll(() => searchStatus().textContent()).toBe('1 of 3');
    await expect.poll(() => highlighted().textContent()).toContain('needle 1');
    await input.press('Enter');
    await expect.poll(() => searchStatus().textContent()).toBe('2 of 3');
    await expect.poll(() => highlighted().textContent()).toContain('needle 2');
    await input.press('Enter');
    await expect.poll(() => highlighted().textContent()).toContain('needle 3');
    await input.press('Shift+Enter');
    await input.press('Shift+Enter');
    await expect.poll(() => searchStatus().textContent()).toBe('1 of 3');
    await expect.poll(() => highlighted().textContent()).toContain('needle 1');
    // The other matches on screen are tinted.
    expect(await page.locator('[role=log] .log-line--match').filter({ hasText: 'needle 2' }).count()).toBe(1);
    await saveShot(page, 'task-log-search-1280');
    await input.press('Escape');
    await page.getByRole('search').waitFor({ state: 'detached' });
  });

  it('a ?t=&line= address opens the log at that line, highlighted', async () => {
    const line = await lineOf(noisyTask, 'needle 2');
    await openLog(noisyTask, line);
    await expect.poll(() => highlighted().textContent()).toContain('needle 2');
    expect(await highlighted().isVisible()).toBe(true);
  });

  it('shows ANSI colours and makes https addresses safe links', async () => {
    await openLog(noisyTask, await lineOf(noisyTask, 'red alert line'));
    const red = page.getByRole('log').getByText('red alert line', { exact: true });
    expect(await red.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(255, 123, 114)');
    const link = page.getByRole('log').getByRole('link', { name: 'https://example.com/docs' });
    expect(await link.getAttribute('href')).toBe('https://example.com/docs');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect((await link.getAttribute('rel'))?.split(' ')).toContain('noopener');
  });

  it('Jump to first error highlights the error line, and is disabled in a log without one', async () => {
    await openLog(noisyTask, 1);
    const jump = page.getByRole('button', { name: 'Jump to first error' });
    await expect.poll(() => jump.isEnabled()).toBe(true);
    await jump.click();
    await expect.poll(() => highlighted().textContent()).toContain('ERROR: the deploy failed');
    expect(await highlighted().isVisible()).toBe(true);

    await openLog(cleanTask);
    await page.getByRole('log').getByText('all good').waitFor();
    await expect.poll(() => jump.isDisabled()).toBe(true);
    await jump.locator('xpath=..').hover();
    await page.getByRole('tooltip').getByText('No line looks like an error').waitFor();
  });

  it('copies a line without its colour codes, and a link to it, from the line’s actions', async () => {
    const line = await lineOf(noisyTask, 'red alert line');
    await openLog(noisyTask, line);
    const row = highlighted();
    await row.hover();
    await row.getByRole('button', { name: `Actions of line ${line}` }).click();
    if (shotsFolder) {
      await page.getByRole('menuitem', { name: 'Copy line' }).waitFor();
      await page.waitForTimeout(400); // the menu's opening transition
      await saveShot(page, 'task-log-line-actions');
    }
    await page.getByRole('menuitem', { name: 'Copy line' }).click();
    await page.getByText('Line copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('red alert line');

    // Keyboard: the actions button is reachable with Tab and opens its menu with Enter.
    await row.getByRole('button', { name: `Actions of line ${line}` }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Copy link to line' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByText('Link to the line copied to the clipboard.').waitFor();
    const copied = new URL(await page.evaluate(() => navigator.clipboard.readText()));
    expect(copied.origin).toBe(new URL(gantry.server.url).origin);
    expect(copied.searchParams.get('t')).toBe(String(noisyTask));
    expect(copied.searchParams.get('line')).toBe(String(line));

    await page.goto(copied.toString());
    await expect.poll(() => highlighted().textContent()).toContain('red alert line');
  });

  it('looks right in dark mode', async () => {
    const dark = await gantry.signedInPage({ colorScheme: 'dark', waitForUrl: /\/project\/\d+\/history/ });
    await dark.goto(`/project/${projectId}/history?t=${noisyTask}`);
    await dark.getByRole('log').getByText('after the error').waitFor();
    await dark.keyboard.press('Control+f');
    await dark.getByRole('textbox', { name: 'Search in the log' }).pressSequentially('needle');
    await expect.poll(() => dark.getByRole('search').getByRole('status').textContent()).toBe('1 of 3');
    expect(await dark.locator('[role=log] [aria-current=true]').count()).toBe(1);
    await saveShot(dark, 'task-log-search-dark');
    await dark.context().close();
  });
});
