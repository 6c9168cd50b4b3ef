import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';
import { openDialog } from '../support/ui.ts';

describe('retrying a workflow run in the browser', () => {
  const gantry = useGantry();
  let page: Page;
  let projectId: number;
  let templates: Record<'Build' | 'Flaky', number>;
  // The flaky template fails until this file exists: the fix made before the retry.
  const markers = mkdtempSync(path.join(tmpdir(), 'gantry-e2e-retry-'));
  const fixed = path.join(markers, 'fixed');
  afterAll(() => rmSync(markers, { recursive: true, force: true }));

  beforeAll(async () => {
    ({
      page,
      projectId,
      templateIds: templates,
    } = await gantry.projectPage(
      'Retries',
      { 'build.sh': 'echo building\n', 'flaky.sh': `test -e '${fixed}'\n` },
      { Build: { app: 'bash', playbook: 'build.sh' }, Flaky: { app: 'bash', playbook: 'flaky.sh' } },
    ));
  });

  it('retries a failed run from its failed step: the new run keeps the step that succeeded and goes on', async () => {
    const workflow = await gantry.api<{ id: number }>('POST', `/api/project/${projectId}/workflows`, {
      name: 'Flaky release',
      steps: [
        { key: 'build', kind: 'template', template_id: templates.Build },
        { key: 'deploy', kind: 'template', template_id: templates.Flaky },
        { key: 'verify', kind: 'template', template_id: templates.Build },
      ],
      edges: [
        { from: 'build', to: 'deploy', on: 'success' },
        { from: 'deploy', to: 'verify', on: 'success' },
      ],
    });
    const run = await gantry.api<{ id: number }>('POST', `/api/project/${projectId}/workflows/${workflow.id}/runs`, {});
    await page.goto(`/project/${projectId}/workflows/${workflow.id}/runs/${run.id}`);
    await page.getByRole('group', { name: 'Step deploy: Failed' }).waitFor({ timeout: 30_000 });
    await page.getByRole('group', { name: 'Step verify: Skipped' }).waitFor();
    await page.getByRole('status').getByText('Failed', { exact: true }).waitFor();

    writeFileSync(fixed, '');
    const dialog = await openDialog(page, 'Retry from failed step');
    await dialog.getByText('Every failed step').waitFor();
    await dialog.getByRole('button', { name: 'Retry from failed step' }).click();
    await page.waitForURL(new RegExp(`/workflows/${workflow.id}/runs/(?!${run.id}$)\\d+$`));
    await page.getByRole('link', { name: `Retry of run #${run.id}` }).waitFor();
    await page.getByRole('group', { name: 'Step verify: Success' }).waitFor({ timeout: 30_000 });
    await page.getByRole('group', { name: 'Step deploy: Success' }).waitFor();
    await page.getByRole('status').getByText('Success', { exact: true }).waitFor();
    await page.getByText(`Kept from run ${run.id}`).waitFor();

    // The retried run links to its retry and offers no second retry.
    await page.getByRole('link', { name: `Retry of run #${run.id}` }).click();
    await page.getByRole('link', { name: /^Retried as run #\d+$/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Retry from failed step' }).count()).toBe(0);
  });
});
