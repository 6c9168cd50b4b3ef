import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';

/** A rejected plan, workspace inventories in the inventory list, and reference links that lead to the item. */
describe('rejected plans, workspaces and reference links, as a manager meets them', () => {
  const gantry = useGantry();
  let page: Page;
  let workDir: string;
  let projectId = 0;
  let templateId = 0;
  let workspaceId = 0;
  let keyId = 0;
  let inventoryId = 0;
  let repositoryId = 0;
  let scheduleId = 0;
  const base = () => `/project/${projectId}`;

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-e2e-refs-'));
    const repoDir = path.join(workDir, 'repo');
    execFileSync('git', ['init', '-q', repoDir]);
    writeFileSync(path.join(repoDir, 'main.tf'), 'terraform {}\n');
    execFileSync('git', [
      '-C',
      repoDir,
      '-c',
      'user.name=e2e',
      '-c',
      'user.email=e2e@example.com',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'init',
    ]);
    // A terraform stand-in whose plan always has changes, so every run waits for confirmation.
    const terraform = path.join(workDir, 'terraform');
    writeFileSync(terraform, '#!/bin/sh\necho "terraform $1"\nif [ "$1" = plan ]; then exit 2; fi\nexit 0\n');
    chmodSync(terraform, 0o755);

    await gantry.api('PUT', '/api/apps/terraform', { path: terraform, active: true });
    projectId = (await gantry.api<{ id: number }>('POST', '/api/projects', { name: 'Infrastructure' })).id;
    const apiBase = `/api/project/${projectId}`;
    const [noneKey] = await gantry.api<Array<{ id: number }>>('GET', `${apiBase}/keys`);
    const [group] = await gantry.api<Array<{ id: number }>>('GET', `${apiBase}/environment`);
    keyId = (
      await gantry.api<{ id: number }>('POST', `${apiBase}/keys`, {
        name: 'deploy login',
        type: 'login_password',
        login_password: { login: 'deploy', password: 'deploy-Pa55' },
      })
    ).id;
    repositoryId = (
      await gantry.api<{ id: number }>('POST', `${apiBase}/repositories`, {
        name: 'infra',
        git_url: repoDir,
        ssh_key_id: noneKey?.id,
      })
    ).id;
    inventoryId = (
      await gantry.api<{ id: number }>('POST', `${apiBase}/inventory`, {
        name: 'web servers',
        type: 'static',
        inventory: 'web1\n',
        ssh_key_id: keyId,
      })
    ).id;
    const template = await gantry.api<{ id: number; inventory_id: number }>('POST', `${apiBase}/templates`, {
      name: 'Infra',
      app: 'terraform',
      playbook: '',
      repository_id: repositoryId,
      environment_id: group?.id,
    });
    templateId = template.id;
    workspaceId = template.inventory_id;
    scheduleId = (
      await gantry.api<{ id: number }>('POST', `${apiBase}/schedules`, {
        name: 'Nightly plan',
        template_id: templateId,
        cron_format: '0 3 * * *',
        active: false,
      })
    ).id;

    page = await gantry.signedInPage({ waitForUrl: /\/project\/\d+\/history/ });
  });

  afterAll(async () => {
    rmSync(workDir, { recursive: true, force: true });
  });

  it('rejecting a plan in the task log ends the task as Rejected, with re-run and no stop', async () => {
    const taskId = await gantry.startTask(projectId, templateId);
    await page.goto(`${base()}/history?t=${taskId}`);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Reject' }).click({ timeout: 20_000 });
    await dialog.getByText('Rejected', { exact: true }).waitFor();
    await dialog.getByText('Task rejected.').waitFor();
    await dialog.getByRole('button', { name: 'ReRun' }).waitFor();
    expect(await dialog.getByRole('button', { name: /Stop/ }).count()).toBe(0);
    expect(await dialog.getByText('Failed', { exact: true }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page
      .getByRole('row')
      .filter({ hasText: `#${taskId}` })
      .getByText('Rejected', { exact: true })
      .waitFor();
  });

  it('a workspace inventory offers attach instead of edit, leading to its template workspaces', async () => {
    await page.goto(`${base()}/inventory`);
    const row = page.getByRole('row').filter({ hasText: 'Terraform workspace' });
    expect(await row.getByRole('button', { name: /^Edit/ }).count()).toBe(0);
    await row.getByRole('link', { name: /^Attach / }).click();
    await page.waitForURL(new RegExp(`/templates/${templateId}/state$`));
    expect(workspaceId).toBeGreaterThan(0);
  });

  it('the references dialog links to the item, whose address opens it on its list', async () => {
    await page.goto(`${base()}/keys`);
    await page
      .getByRole('row')
      .filter({ hasText: 'deploy login' })
      .getByRole('button', { name: /^Delete/ })
      .click();
    const inUse = page.getByRole('dialog', { name: 'Cannot delete' });
    const link = inUse.getByRole('link', { name: 'web servers' });
    expect(await link.getAttribute('href')).toBe(`${base()}/inventories/${inventoryId}`);
    await link.click();
    const edit = page.getByRole('dialog');
    await page.waitForURL(new RegExp(`/inventories/${inventoryId}$`));
    expect(await edit.getByLabel(/^Name/).inputValue()).toBe('web servers');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(new RegExp(`${base()}/inventory$`));

    await page.goto(`${base()}/repositories/${repositoryId}`);
    expect(await page.getByRole('dialog').getByLabel(/^Name/).inputValue()).toBe('infra');
    await page.goto(`${base()}/schedules/${scheduleId}`);
    expect(await page.getByRole('dialog').getByLabel(/^Name/).inputValue()).toBe('Nightly plan');
    // An item that is not there leaves the list, not a "Page not found".
    await page.goto(`${base()}/repositories/999999`);
    await page.waitForURL(new RegExp(`${base()}/repositories$`));
  });
});
