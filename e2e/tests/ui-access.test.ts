import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';
import { choose } from '../support/ui.ts';

/**
 * Who sees which screen: runner pages by role, the notices of features the server does not offer
 * (premium_features), and a user with no project who may not create one.
 */
describe('screens by access and by the features the server offers', () => {
  const gantry = useGantry({ GANTRY_PREMIUM_FEATURES: '["task_summary"]', GANTRY_USE_REMOTE_RUNNER: 'true' });
  let projectId = 0;
  let templateId = 0;

  const pageAs = (login: string, password: string, landing: RegExp): Promise<Page> =>
    gantry.signedInPage({ login, password, waitForUrl: landing });

  async function createUser(username: string, role?: string): Promise<string> {
    return (await gantry.createUser(username, role ? { projectId, role } : undefined)).password;
  }

  /** The page the upgrade links lead to: which features are on, and the setting that turns them on. */
  async function expectFeaturesPage(page: Page): Promise<void> {
    await page.waitForURL(/\/features$/);
    await page.getByRole('heading', { name: 'Features of this server' }).waitFor();
    const table = page.getByRole('table', { name: 'Features of this server' });
    const state = (feature: string) =>
      table
        .getByRole('row', { name: new RegExp(feature) })
        .getByRole('cell')
        .nth(2);
    await expect.poll(() => state('Project runners').textContent()).toBe('Off');
    expect(await state('Terraform/OpenTofu HTTP backend').textContent()).toBe('Off');
    expect(await state('Task summary').textContent()).toBe('On');
    expect(await page.getByLabel('Environment variable', { exact: true }).textContent()).toBe(
      `GANTRY_PREMIUM_FEATURES='["project_runners","terraform_backend","task_summary"]'`,
    );
  }

  beforeAll(async () => {
    // Only task_summary is offered: project runners and the Terraform HTTP backend show their notices.
    const infrastructure = await gantry.scriptsProject('Infrastructure', { 'main.tf': 'terraform {}\n' });
    projectId = infrastructure.projectId;
    templateId = await infrastructure.createTemplate('Infra', { app: 'terraform', playbook: '' });
  });

  it('the server reports only the configured premium features', async () => {
    const info = await gantry.api<{ premium_features: Record<string, boolean> }>('GET', '/api/info');
    expect(info.premium_features).toEqual({ project_runners: false, terraform_backend: false, task_summary: true });
  });

  it('a guest cannot open the global or the project runners: both redirect, and no runners tab or New runner button shows', async () => {
    const page = await pageAs('guest', await createUser('guest', 'guest'), /\/project\/\d+\/history/);
    for (const adminPage of ['/runners', '/users', '/tasks']) {
      await page.goto(adminPage);
      await page.waitForURL(new RegExp(`/project/${projectId}/history$`));
    }
    await page.goto(`/project/${projectId}/runners`);
    await page.waitForURL(new RegExp(`/project/${projectId}/history$`));
    await page.getByRole('tab', { name: 'History' }).waitFor();
    expect(await page.getByRole('tab', { name: /Runners/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New runner' }).count()).toBe(0);
  });

  it('without the project_runners feature the runners tab is marked PRO and shows the banner instead of the runners', async () => {
    const page = await pageAs(gantry.server.adminLogin, gantry.server.adminPassword, /\/project\/\d+\/history/);
    await page.goto(`/project/${projectId}/runners`);
    const tab = page.getByRole('tab', { name: /Runners/ });
    await tab.getByText('PRO').waitFor();
    await page.getByText('Project runners are available only in the PRO version.').waitFor();
    await page.getByText(/turn them on with the premium_features setting/).waitFor();
    expect(await page.getByRole('button', { name: 'New runner' }).count()).toBe(0);
    // The upgrade link leads to this server's page on its features.
    await page.getByRole('status').getByRole('link', { name: 'How to turn it on' }).click();
    await expectFeaturesPage(page);
    // Global runners are not a premium feature: the admin's page works.
    await page.goto('/runners');
    await page.getByRole('button', { name: 'New runner' }).waitFor();
  });

  it('without the terraform_backend feature the workspace shows the PRO notice instead of its backend addresses', async () => {
    const page = await pageAs(gantry.server.adminLogin, gantry.server.adminPassword, /\/project\/\d+\/history/);
    await page.goto(`/project/${projectId}/templates/${templateId}/state`);
    await page.getByText('Terraform/OpenTofu HTTP backend available only in PRO version.').waitFor();
    expect(await page.getByRole('button', { name: 'Add alias' }).count()).toBe(0);
    expect(await page.getByRole('list', { name: 'Backend addresses' }).count()).toBe(0);
    await page.getByRole('status').getByRole('link', { name: 'How to turn it on' }).click();
    await expectFeaturesPage(page);
    expect(await page.getByText(/Only an administrator of the server can change this setting/).count()).toBe(0);
  });

  it('the features page is open to every signed-in user and tells a non-admin to ask an administrator', async () => {
    const page = await pageAs('viewer', await createUser('viewer', 'guest'), /\/project\/\d+\/history/);
    await page.goto('/features');
    await expectFeaturesPage(page);
    await page.getByText(/Only an administrator of the server can change this setting/).waitFor();
  });

  it('a user with no project who may not create one sees whom to ask instead of a create form', async () => {
    const page = await pageAs('newcomer', await createUser('newcomer'), /\/project\/new/);
    await page.getByRole('heading', { name: 'No project yet' }).waitFor();
    await page.getByText(/Ask a Gantry administrator, or the owner of the project you work on/).waitFor();
    expect(await page.getByRole('button', { name: 'Create' }).count()).toBe(0);
    expect(await page.getByRole('form', { name: /project/i }).count()).toBe(0);
    await page.goto('/project/restore');
    await page.getByRole('heading', { name: 'No project yet' }).waitFor();
    expect(await page.getByRole('button', { name: /Restore/ }).count()).toBe(0);
  });

  it('forms have room at 1280 px: the new-project form area is 300 px high, vault and secret rows show whole fields', async () => {
    const page = await pageAs(gantry.server.adminLogin, gantry.server.adminPassword, /\/project\/\d+\/history/);
    await page.goto('/project/new');
    const form = page.getByRole('form', { name: /project/i });
    await form.getByRole('button', { name: 'Create', exact: true }).waitFor();
    expect((await form.boundingBox())?.height).toBeLessThanOrEqual(300);

    await page.goto(`/project/${projectId}/templates/new/edit`);
    await page.getByRole('button', { name: /Add vault/ }).click();
    const vault = page.getByRole('group', { name: 'Vault 1' });
    const [name, type, key] = await Promise.all(
      ['Vault ID', 'Type', 'Password key'].map((label) =>
        vault.getByLabel(label, { exact: true }).first().boundingBox(),
      ),
    );
    expect(name?.width).toBeGreaterThanOrEqual(160);
    // The key takes a line of its own, as wide as name and type together.
    expect(key?.y).toBeGreaterThan((type?.y ?? 0) + (type?.height ?? 0));
    expect(key?.width).toBeGreaterThanOrEqual(340);

    await page.goto(`/project/${projectId}/environment`);
    await page.getByRole('button', { name: /New/ }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Secrets' }).click();
    await dialog.getByRole('button', { name: /Add secret/ }).click();
    await choose(dialog, page, 'Secret type', 'Environment variable');
    const typeField = dialog.getByRole('combobox', { name: 'Secret type' });
    expect(await typeField.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  });

  it('a member who may not create projects is sent from /project/new to their project', async () => {
    const page = await pageAs('runner', await createUser('runner', 'task_runner'), /\/project\/\d+\/history/);
    await page.goto('/project/new');
    await page.waitForURL(new RegExp(`/project/${projectId}/history$`));
  });
});
