/// <reference lib="dom" />
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, newPage } from '../e2e/support/browser.ts';
import { median, ratio, startBenchServer } from './support.ts';

/**
 * The task log dialog on a 1,000,000-line task: time from asking for the log to its first screen
 * of lines in headless Chromium, against the 1 s target. Needs the built web UI
 * (npm run build --workspace @gantry/web).
 */

const LINES = 1_000_000;
const TARGET_MS = 1000;
const RUNS = 5;
const webDist = path.resolve(import.meta.dirname, '../apps/web/dist');

/** Resolves once the log shows loaded lines all the way down its viewport. */
async function waitForFirstScreen(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const log = document.querySelector<HTMLElement>('[role=log]');
      if (!log || log.clientHeight === 0) return false;
      const bottom = log.getBoundingClientRect().bottom;
      const lines = Array.from(log.querySelectorAll<HTMLElement>('.log-line'));
      const loaded = lines.filter((line) => !line.classList.contains('log-line--pending'));
      return loaded.length > 0 && loaded.some((line) => line.getBoundingClientRect().bottom >= bottom - 1);
    },
    undefined,
    { polling: 'raf', timeout: 30_000 },
  );
}

async function main(): Promise<boolean> {
  if (!existsSync(path.join(webDist, 'index.html')))
    throw new Error(`No built web UI in ${webDist}; run npm run build --workspace @gantry/web first`);
  const server = await startBenchServer({ web_dist_dir: webDist });
  const base = `http://127.0.0.1:${server.port}`;
  const templateId = await server.createTemplate('million', `seq 1 ${LINES}\n`);
  const { id: taskId } = await server.postTask(templateId);
  await server.waitForStatus(taskId, ['success', 'error']);

  const browser = await launchBrowser();
  const page = await newPage(browser, base);
  const [name = '', value = ''] = server.cookie.split('=');
  await page.context().addCookies([{ name, value, url: base }]);

  // Cold: a deep link to the log, the whole app loading with it.
  const coldStart = performance.now();
  await page.goto(`/project/${server.projectId}/history?t=${taskId}`);
  await waitForFirstScreen(page);
  const cold = performance.now() - coldStart;
  // The seq lines plus the engine's own (started, command, finished): the count is found by probing.
  await page.waitForFunction(
    (lines) => Number(document.querySelector('[role=log]')?.getAttribute('data-line-count')) > lines,
    LINES,
    { timeout: 30_000 },
  );
  const count = Number(await page.locator('[role=log]').getAttribute('data-line-count'));

  // Warm: the app is open on the history; the user clicks the task.
  const warm: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await page.goto(`/project/${server.projectId}/history`);
    const link = page.getByRole('link', { name: `#${taskId}`, exact: true });
    await link.waitFor();
    const started = performance.now();
    await link.click();
    await waitForFirstScreen(page);
    warm.push(performance.now() - started);
  }

  // The end of the log is one jump away.
  const jumpStart = performance.now();
  await page.getByRole('button', { name: 'Jump to bottom' }).click();
  await page.locator('[role=log] .log-text', { hasText: 'Task finished successfully.' }).waitFor({ timeout: 30_000 });
  const jump = performance.now() - jumpStart;

  await browser.close();
  await server.close();

  console.log(
    `      ${count} lines known to the dialog; in-app opens ${warm.map((ms) => ms.toFixed(0)).join(', ')} ms; jump to the last line ${jump.toFixed(0)} ms`,
  );
  console.log(
    `      cold deep link ?t= with the whole app loading: ${cold.toFixed(0)} ms (${(cold / TARGET_MS).toFixed(2)}x the target, for information)`,
  );
  return ratio(
    `log dialog first screen, ${LINES.toLocaleString('en')}-line task, opened from the history (median of ${RUNS})`,
    median(warm),
    TARGET_MS,
    1,
  );
}

const ok = await main();
console.log(ok ? 'All log dialog targets met.' : 'Some log dialog targets were missed.');
process.exit(0);
