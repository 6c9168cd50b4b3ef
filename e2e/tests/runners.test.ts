import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';
import { openDialog, openNewDialog } from '../support/ui.ts';

const gantryBin = path.resolve(import.meta.dirname, '../../apps/server/bin/gantry.mjs');

describe('runners, as an administrator sets them up', () => {
  const gantry = useGantry({ GANTRY_USE_REMOTE_RUNNER: 'true' });
  let page: Page;
  let runner: ChildProcess | undefined;
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-e2e-runner-'));

  beforeAll(async () => {
    page = await gantry.signedInPage({ waitForUrl: /\/project\/new/, clipboard: true });
  });
  afterAll(() => {
    runner?.kill('SIGKILL');
    rmSync(workDir, { recursive: true, force: true });
  });

  it('creates a global runner, copies its command line, and the copied command connects the runner', async () => {
    const form = await openNewDialog(page, '/runners', 'New runner');
    await form.getByLabel(/^Max parallel tasks/).fill('-1');
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByText('Name is required').waitFor();
    await form.getByText('Must be 0 or greater').waitFor();
    await form.getByLabel(/^Name/).fill('build-box');
    await form.getByLabel(/^Max parallel tasks/).fill('');
    await form.getByRole('button', { name: 'Create' }).click();

    const tokenDialog = page.getByRole('dialog', { name: 'Runner build-box created' });
    await tokenDialog.waitFor();
    expect((await tokenDialog.boundingBox())?.width).toBeLessThanOrEqual(600);
    await tokenDialog.getByText('Copy the token now: it is shown only once.').waitFor();
    await tokenDialog.getByText(/docker run .*GANTRY_RUNNER_TOKEN=/).waitFor();
    await tokenDialog.getByRole('button', { name: 'Copy the command', exact: true }).click();
    await page.getByText('The command has been copied to the clipboard.').waitFor();
    const command = await page.evaluate(() => navigator.clipboard.readText());
    expect(command).toMatch(
      new RegExp(
        `^GANTRY_RUNNER_TOKEN=[A-Za-z0-9_-]{40,} gantry runner start --server ${gantry.server.url.replace(/[.]/g, '\\.')}$`,
      ),
    );
    await tokenDialog.getByRole('button', { name: 'Close' }).click();

    // The table: unlimited shows as infinity, the runner has never connected yet.
    const row = page.getByRole('row').filter({ hasText: 'build-box' });
    await row.getByText('∞').waitFor();
    await row.getByText('Never connected').waitFor();

    // Run exactly what was copied (with this checkout's gantry), and the runner shows up as seen.
    // The token travels in the environment, never on the command line where `ps` shows it.
    const [assignment = '', , ...args] = command.split(' ');
    const [variable = '', token = ''] = assignment.split('=');
    runner = spawn(process.execPath, [gantryBin, ...args, '--work-dir', workDir], {
      env: { PATH: process.env.PATH ?? '', [variable]: token },
      stdio: 'ignore',
    });
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('row').filter({ hasText: 'build-box' }).waitFor();
          return page.getByRole('row').filter({ hasText: 'build-box' }).getByText('Never connected').count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(0);

    await page.getByLabel('build-box active').click();
    await expect.poll(() => page.getByLabel('build-box active').isChecked()).toBe(false);
  });

  it('offers project runners as a free tab of a plain project', async () => {
    await page.goto('/project/new');
    await page.getByLabel('Project name').fill('Runners project');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/project\/\d+\/history/);
    const tab = page.getByRole('tab', { name: 'Runners' });
    await tab.waitFor();
    expect(await tab.textContent()).toBe('Runners');
    await tab.click();
    await page.waitForURL(/\/project\/\d+\/runners/);
    const form = await openDialog(page, 'New runner');
    await form.getByLabel(/^Name/).fill('project-box');
    await form.getByLabel(/^Max parallel tasks/).fill('2');
    await form.getByRole('button', { name: 'Create' }).click();
    const tokenDialog = page.getByRole('dialog', { name: 'Runner project-box created' });
    await tokenDialog.getByRole('button', { name: 'Copy the container command' }).click();
    await page.getByText('The command has been copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
      /^docker run .* -e GANTRY_RUNNER_SERVER=http:\/\/127\.0\.0\.1:\d+ -e GANTRY_RUNNER_TOKEN=\S+ gantry\/gantry runner start$/,
    );
    await tokenDialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('row').filter({ hasText: 'project-box' }).getByText('2', { exact: true }).waitFor();
    expect(await page.getByText('Pro', { exact: true }).count()).toBe(0);
  });
});
