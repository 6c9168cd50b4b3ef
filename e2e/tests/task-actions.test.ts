import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitForTaskEnd } from '../support/api-client.ts';
import { useGantry } from '../support/gantry-fixture.ts';

/**
 * The actions of a task in the browser: force stop of a task that ignores the polite stop, and
 * re-run labels that follow the template type (seed 000 §4: ReRun, ReBuild, ReDeploy).
 */
describe('task actions: force stop of a stopping task, re-run labels by template type', () => {
  // An hour between SIGTERM and SIGKILL: only a force stop can end the stubborn task within the test.
  const gantry = useGantry({ GANTRY_TASK_KILL_GRACE_SECONDS: '3600' });
  let page: Page;
  let projectId = 0;
  const templates: Record<string, number> = {};

  beforeAll(async () => {
    const scripts = await gantry.scriptsProject('Actions', {
      'stubborn.sh': "trap 'echo ignoring the stop' TERM\necho 'going to sleep'\nwhile true; do sleep 1; done\n",
      'ok.sh': 'echo done\n',
    });
    projectId = scripts.projectId;
    templates.Stubborn = await scripts.createTemplate('Stubborn', { app: 'bash', playbook: 'stubborn.sh' });
    templates.Script = await scripts.createTemplate('Script', { app: 'bash', playbook: 'ok.sh' });
    templates.Build = await scripts.createTemplate('Build', {
      app: 'bash',
      playbook: 'ok.sh',
      type: 'build',
      start_version: '1.0.0',
    });
    templates.Deploy = await scripts.createTemplate('Deploy', {
      app: 'bash',
      playbook: 'ok.sh',
      type: 'deploy',
      build_template_id: templates.Build,
    });
    page = await gantry.signedInPage({ waitForUrl: /\/project\/\d+\/history/ });
  });

  it('force stop ends a task that is already stopping, without waiting for the kill grace period', async () => {
    const taskId = await gantry.startTask(projectId, templates.Stubborn ?? 0);
    await page.goto(`/project/${projectId}/history?t=${taskId}`);
    const dialog = page.getByRole('dialog');
    await page.locator('[role=log] .log-text', { hasText: 'going to sleep' }).waitFor({ timeout: 20_000 });
    await dialog.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.locator('[role=log] .log-text', { hasText: 'ignoring the stop' }).first().waitFor({ timeout: 20_000 });
    await dialog.getByText('Stopping...', { exact: true }).first().waitFor();
    await dialog.getByRole('button', { name: 'Force stop' }).click();
    await dialog.getByText('Stopped', { exact: true }).waitFor({ timeout: 20_000 });
    expect(await waitForTaskEnd(gantry.api, projectId, taskId)).toBe('stopped');
    // The status can be shown (a log line, the chip) a moment before the buttons follow it.
    await dialog.getByRole('button', { name: 'Force stop' }).waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: 'ReRun' }).waitFor();
  });

  it('finished tasks offer ReRun, ReBuild or ReDeploy after their template type, in the template task list and the task log', async () => {
    const script = await gantry.runTask(projectId, templates.Script ?? 0);
    const build = await gantry.runTask(projectId, templates.Build ?? 0);
    const deploy = await gantry.runTask(projectId, templates.Deploy ?? 0, { build_task_id: build });
    for (const [template, taskId, label] of [
      [templates.Script, script, 'ReRun'],
      [templates.Build, build, 'ReBuild'],
      [templates.Deploy, deploy, 'ReDeploy'],
    ] as const) {
      await page.goto(`/project/${projectId}/templates/${template}/tasks`);
      const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: `#${taskId}`, exact: true }) });
      await row.getByRole('link', { name: label, exact: true }).waitFor();
    }
    await page.goto(`/project/${projectId}/history?t=${deploy}`);
    await page.getByRole('dialog').getByRole('button', { name: 'ReDeploy' }).waitFor();
  });
});
