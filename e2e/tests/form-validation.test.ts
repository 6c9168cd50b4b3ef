import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';
import { choose, openDialog, openNewDialog, submitAndClose } from '../support/ui.ts';

/**
 * Lazy validation, form by form: a refused save shows each rule's message at its field (the text
 * the field's aria-describedby names), and the form stays open. The rules other browser tests
 * already walk (keys, repository URL, template basics, survey enums, schedules, integrations,
 * matchers, workspaces, runners, restore file) are not repeated here.
 */
describe('every form says at the field why it does not save', () => {
  const gantry = useGantry();
  let page: Page;
  let base = '';
  let integrationId = 0;

  /** The message the field labelled `label` points at with aria-describedby. */
  async function fieldMessage(scope: Page | Locator, label: string | RegExp): Promise<string> {
    const field = scope.getByLabel(label).first();
    await field.waitFor();
    return field.evaluate((element) => {
      const ids = (element.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
      return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
    });
  }

  /** Waits until the field labelled `label` shows `message`. */
  async function expectAtField(scope: Page | Locator, label: string | RegExp, message: string): Promise<void> {
    await expect.poll(() => fieldMessage(scope, label)).toContain(message);
  }

  beforeAll(async () => {
    const project = await gantry.scriptsProject('Checks', { 'play.yml': '- hosts: all\n' });
    base = `/project/${project.projectId}`;
    const templateId = await project.createTemplate('Play', { app: 'bash', playbook: 'play.yml' });
    integrationId = (
      await gantry.api<{ id: number }>('POST', `/api/project/${project.projectId}/integrations`, {
        name: 'Hook',
        template_id: templateId,
      })
    ).id;
    page = await gantry.signedInPage({ waitForUrl: /\/project\/\d+\/history/ });
  });

  it('a key of type login with password needs its password', async () => {
    const dialog = await openNewDialog(page, `${base}/keys`, 'New key');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectAtField(dialog, /^Name/, 'Name is required');
    await expectAtField(dialog, /^Type/, 'Type is required');
    await dialog.getByLabel(/^Name/).fill('sudo');
    await choose(dialog, page, /^Type/, /Login with password/);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectAtField(dialog, /^Password/, 'Password is required');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a repository needs a name, a URL, an access key and, unless local, a branch', async () => {
    const dialog = await openNewDialog(page, `${base}/repositories`, 'New repository');
    await dialog.getByLabel(/^Branch/).fill('');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectAtField(dialog, /^Name/, 'Name is required');
    await expectAtField(dialog, /^URL or path/, 'URL is required');
    await expectAtField(dialog, /^Access key/, 'Access key is required');
    await dialog.getByLabel(/^URL or path/).fill('https://example.com/app.git');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectAtField(dialog, /^Branch/, 'Branch is required');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a URL without a scheme is ssh, with or without a leading slash; choosing Local path adds the slash', async () => {
    const dialog = await openNewDialog(page, `${base}/repositories`, 'New repository');
    const url = dialog.getByLabel(/^URL or path/);
    const protocol = dialog.getByRole('combobox', { name: 'Protocol' });
    await dialog.getByLabel(/^Name/).fill('mirror');
    for (const scp of ['host:repo.git', 'tmp/path']) {
      await url.fill(scp);
      await expect.poll(() => protocol.textContent()).toBe('SSH');
    }
    await dialog.getByLabel(/^Branch/).fill('main');
    await choose(dialog, page, /^Access key/, /None/);
    await submitAndClose(dialog, 'Create');
    await page.getByRole('cell', { name: /tmp\/path/ }).waitFor();
    expect(await page.getByText('Incorrect URL').count()).toBe(0);

    await page.getByRole('button', { name: 'New repository' }).click();
    await url.fill('srv/git/app');
    await choose(dialog, page, 'Protocol', 'Local path');
    expect(await url.inputValue()).toBe('/srv/git/app');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('an inventory needs a name, user credentials and, for a file, its path', async () => {
    await page.goto(`${base}/inventory`);
    await page.getByRole('button', { name: /New inventory/ }).click();
    const menuItem = page.getByRole('menuitem', { name: /Ansible/ });
    if (await menuItem.count()) await menuItem.click();
    const dialog = page.getByRole('dialog');
    await choose(dialog, page, /^Type/, /^File/);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectAtField(dialog, /^Name/, 'Name is required');
    await expectAtField(dialog, /^User credentials/, 'User credentials are required');
    await expectAtField(dialog, /^Path/, 'Path is required');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a variable group needs a name and valid JSON, and says when its variables cannot be a table', async () => {
    await page.goto(`${base}/environment`);
    await page.getByRole('button', { name: /New/ }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Name/).fill('');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectAtField(dialog, /^Name/, 'Name is required');
    await dialog.getByRole('tab', { name: 'Secrets' }).click();
    await dialog.getByRole('button', { name: /Add secret/ }).click();
    await dialog.getByLabel(/^Name/).fill('prod');
    await dialog.getByRole('button', { name: 'Create' }).click();
    // The refused secret brings its tab forward with the rule under the list.
    await dialog.getByText('Secret name is required').waitFor();
    await dialog.getByRole('button', { name: 'Delete New secret' }).click();
    await dialog.getByRole('tab', { name: 'Variables' }).click();
    await dialog.getByRole('button', { name: /JSON/ }).first().click();
    await dialog.getByRole('textbox', { name: /Extra variables/ }).fill('{"a": {"b": 1}}');
    await dialog.getByRole('button', { name: /Table/ }).first().click();
    await dialog.getByText("Can't be displayed as table.").waitFor();
    await dialog.getByRole('button', { name: /JSON/ }).first().click();
    await dialog.getByRole('textbox', { name: /Extra variables/ }).fill('{"a": ');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Extra variables must be valid JSON').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a build template needs its start version, a deploy template its build template; vault rules show at the vault', async () => {
    await page.goto(`${base}/templates/new/edit?app=ansible`);
    await page.getByRole('tab', { name: 'Build' }).click();
    await page.getByRole('button', { name: 'Create' }).click();
    await expectAtField(page, /^Start version/, 'Start version is required');
    await page.getByRole('tab', { name: 'Deploy' }).click();
    await page.getByRole('button', { name: 'Create' }).click();
    await expectAtField(page, /^Build template/, 'Build template is required');

    await page.getByRole('button', { name: /Add vault/ }).click();
    await page.getByRole('button', { name: /Add vault/ }).click();
    const first = page.getByRole('group', { name: 'Vault 1' });
    const second = page.getByRole('group', { name: 'Vault 2' });
    await choose(first, page, 'Type', 'Client script');
    await first.getByLabel(/^Script/).fill('scripts/vault.py');
    await page.getByRole('button', { name: 'Create' }).click();
    await expectAtField(first, /^Script/, 'Script name must end with -client');
    await expectAtField(second, /^Password key/, 'Vault password is required');
    // Two vaults without a name: only one may be the default.
    await page.getByText('Vault names must be unique; only one vault may have no name').waitFor();
    await first.getByLabel(/^Vault ID/).fill('Prod ');
    await second.getByLabel(/^Vault ID/).fill('prod');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Vault names must be unique; only one vault may have no name').waitFor();
    await first.getByLabel(/^Vault ID/).fill('a/b');
    await page.getByRole('button', { name: 'Create' }).click();
    await expectAtField(first, /^Vault ID/, 'Vault name may only hold letters');
  });

  it('a survey variable needs a title and a name', async () => {
    await page.goto(`${base}/templates/new/edit?app=ansible`);
    const dialog = await openDialog(page, 'Add variable');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectAtField(dialog, /^Title/, 'Title is required');
    await expectAtField(dialog, /^Name/, 'Name is required');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('an extracted value needs a name, its source, for a body its data type, a key and a variable', async () => {
    const dialog = await openNewDialog(page, `${base}/integrations/${integrationId}`, 'New value');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectAtField(dialog, /^Name/, 'Name is required');
    await expectAtField(dialog, /^Value source/, 'Value Source is required');
    await expectAtField(dialog, /^Variable/, 'Variable is required');
    await choose(dialog, page, /^Value source/, 'Body');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectAtField(dialog, /^Body data type/, 'Body data type is required');
    await choose(dialog, page, /^Value source/, 'Header');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectAtField(dialog, /^Header name/, 'Key is required');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a schedule whose cron expression the picker cannot show needs a timing', async () => {
    const dialog = await openNewDialog(page, `${base}/schedule`, 'New schedule');
    await dialog.getByLabel(/^Name/).fill('Odd hours');
    await choose(dialog, page, /^Template/, 'Play');
    await dialog.getByRole('button', { name: 'Cron expression' }).click();
    await dialog.getByLabel(/^Cron/).fill('5 1-3 * * *');
    await dialog.getByRole('button', { name: 'Timing', exact: true }).click();
    await dialog.getByText('cannot be shown as a timing').waitFor();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectAtField(dialog, /^Timing/, 'Timing is required');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a new application needs its id', async () => {
    const dialog = await openNewDialog(page, '/apps', 'New application');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectAtField(dialog, /^ID/, 'ID is required');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a runner refuses a fractional task limit', async () => {
    const dialog = await openNewDialog(page, '/runners', 'New runner');
    await dialog.getByLabel(/^Max parallel tasks/).fill('1.5');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectAtField(dialog, /^Max parallel tasks/, 'Must be integer');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('restoring a project needs its name', async () => {
    await page.goto('/project/restore');
    await page.getByRole('button', { name: 'Restore', exact: true }).click();
    await expectAtField(page, 'Project name', 'Name is required');
  });
});
