import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';
import { choose, openDialog, openNewDialog, seeText, submitAndSee, submitAndClose } from '../support/ui.ts';

describe('project resources, as a new user would set them up', () => {
  const gantry = useGantry();
  let page: Page;
  let projectPath = '';

  beforeAll(async () => {
    page = await gantry.signedInPage({ waitForUrl: /\/project\/new/ });
    await page.getByLabel('Project name').fill('Shop');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/project\/\d+\/history/);
    projectPath = new URL(page.url()).pathname.replace(/\/history$/, '');
  });

  it('creates keys; secrets of a saved key stay locked until override is ticked', async () => {
    let dialog = await openNewDialog(page, `${projectPath}/keys`, 'New key');
    await submitAndSee(dialog, 'Create', ['Name is required', 'Type is required']);
    await dialog.getByLabel(/^Name/).fill('deploy key');
    await choose(dialog, page, /^Type/, /SSH key/);
    await submitAndSee(dialog, 'Create', ['Private key is required']);
    await dialog.getByLabel(/^Login/).fill('git');
    await dialog
      .getByLabel(/^Private key/)
      .fill('-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'deploy key', exact: true }).waitFor();

    dialog = await openDialog(page, 'New key');
    await dialog.getByLabel(/^Name/).fill('vault password');
    await choose(dialog, page, /^Type/, /Login with password/);
    await dialog.getByLabel(/^Password/).fill('s3cret');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'vault password', exact: true }).waitFor();

    dialog = await openDialog(page, 'Edit deploy key');
    expect(await dialog.getByLabel(/^Private key/).count()).toBe(0);
    await dialog.getByLabel('Override secret').check();
    await dialog.getByLabel(/^Private key/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('lists a Semaphore string key by its type and replaces its value', async () => {
    const projectId = /\/project\/(\d+)/.exec(projectPath)?.[1];
    const created = await page.request.post(`/api/project/${projectId}/keys`, {
      data: { name: 'semaphore value', type: 'string', string: 'string-Value-1' },
    });
    expect(created.status()).toBe(201);
    await page.goto(`${projectPath}/keys`);
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'semaphore value', exact: true }) });
    await row.getByRole('cell', { name: 'Single value', exact: true }).waitFor();
    const dialog = await openDialog(page, 'Edit semaphore value');
    await seeText(dialog.getByRole('combobox', { name: /^Type/ }), 'Single value');
    expect(await dialog.getByLabel(/^Value/).count()).toBe(0);
    await dialog.getByLabel('Override secret').check();
    await dialog.getByLabel(/^Value/).fill('string-Value-2');
    await submitAndClose(dialog, 'Save');
    await row.getByRole('cell', { name: 'Single value', exact: true }).waitFor();
  });

  it('creates a repository after the URL is corrected', async () => {
    const dialog = await openNewDialog(page, `${projectPath}/repositories`, 'New repository');
    await dialog.getByLabel(/^Name/).fill('shop app');
    await dialog.getByLabel(/^URL or path/).fill('ftp://example.com/shop.git');
    await submitAndSee(dialog, 'Create', ['Incorrect URL']);
    await seeText(dialog, 'Access key is required');
    await dialog.getByLabel(/^URL or path/).fill('git@github.com:acme/shop.git');
    await choose(dialog, page, 'Protocol', 'HTTPS');
    expect(await dialog.getByLabel(/^URL or path/).inputValue()).toBe('https://github.com/acme/shop.git');
    await dialog.getByLabel(/^Branch/).fill('main');
    await choose(dialog, page, /^Access key/, /deploy key/);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: /https:\/\/github.com\/acme\/shop.git/ }).waitFor();
    await seeText(page, 'main');
  });

  it('creates an ansible inventory from the new-inventory menu', async () => {
    await page.goto(`${projectPath}/inventory`);
    await page.getByRole('button', { name: 'New inventory' }).click();
    await page.getByRole('menuitem', { name: 'Ansible inventory' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Name/).fill('production');
    await choose(dialog, page, /^User credentials/, /deploy key/);
    await dialog.getByLabel('Inventory (INI)').fill('[web]\nweb1.example.com');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'production', exact: true }).waitFor();
  });

  it('creates a variable group with variables from the table and a secret', async () => {
    const dialog = await openNewDialog(page, `${projectPath}/environment`, 'New variable group');
    await dialog.getByLabel(/^Name/).fill('prod vars');
    const extra = dialog.getByRole('region', { name: 'Extra variables' });
    await extra.getByRole('button', { name: 'Add variable' }).click();
    await extra.getByLabel('Name of variable 1').fill('region');
    await extra.getByLabel('Value of variable 1').fill('eu-west-1');
    await extra.getByRole('button', { name: 'JSON' }).click();
    expect(JSON.parse(await extra.getByRole('textbox', { name: 'Extra variables' }).inputValue())).toEqual({
      region: 'eu-west-1',
    });
    await extra.getByRole('textbox', { name: 'Extra variables' }).fill('{"users": {"admin": true}}');
    await extra.getByRole('button', { name: 'Table' }).click();
    await seeText(extra, "Can't be displayed as table.");
    await extra.getByRole('button', { name: 'JSON' }).click();
    await extra.getByRole('textbox', { name: 'Extra variables' }).fill('{"region": "eu-west-1"}');

    await dialog.getByRole('tab', { name: 'Secrets' }).click();
    await dialog.getByRole('button', { name: 'Add secret' }).click();
    await dialog.getByLabel('Secret name').fill('DB_PASSWORD');
    await choose(dialog, page, 'Secret type', 'Environment variable');
    await dialog.getByLabel('Value of DB_PASSWORD').fill('hunter2');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'prod vars', exact: true }).waitFor();

    const edit = await openDialog(page, 'Edit prod vars');
    await edit.getByRole('tab', { name: 'Secrets' }).click();
    await seeText(edit, 'DB_PASSWORD');
    await edit.getByRole('button', { name: 'Cancel' }).click();
  });

  it('builds an ansible template with survey variables and a vault, then sees it in its details', async () => {
    await page.goto(`${projectPath}/templates`);
    await page.getByRole('button', { name: 'New template' }).click();
    await page.getByRole('menuitem', { name: 'Ansible' }).click();
    await page.waitForURL(/\/templates\/new\/edit\?app=ansible/);

    await submitAndSee(page, 'Create', [
      'Name is required',
      'Playbook filename is required',
      'Inventory is required',
      'Repository is required',
      'Variable group is required',
    ]);
    await page.getByLabel(/^Name/).fill('Deploy shop');
    await page.getByLabel(/^Playbook filename/).fill('deploy.yml');
    await choose(page, page, /^Inventory/, 'production');
    await choose(page, page, /^Repository/, 'shop app');
    await choose(page, page, /^Variable group/, 'prod vars');

    let survey = await openDialog(page, 'Add variable');
    await survey.getByLabel(/^Title/).fill('Region');
    await survey.getByLabel(/^Name/).fill('region');
    await choose(survey, page, 'Type', 'Enum');
    await submitAndSee(survey, 'Save', ['Enumeration must have values.']);
    await survey.getByRole('button', { name: 'Add value' }).click();
    await survey.getByLabel('Name of value 1').fill('Europe');
    await survey.getByLabel('Value 1', { exact: true }).fill('eu');
    await submitAndClose(survey, 'Save');

    survey = await openDialog(page, 'Add variable');
    await survey.getByLabel(/^Title/).fill('Replicas');
    await survey.getByLabel(/^Name/).fill('replicas');
    await choose(survey, page, 'Type', 'Integer');
    await survey.getByLabel('Default value').fill('two');
    await submitAndSee(survey, 'Save', ['Must be integer']);
    await survey.getByLabel('Default value').fill('2');
    await submitAndClose(survey, 'Save');

    await page.getByRole('button', { name: 'Add vault' }).click();
    const vault = page.getByRole('group', { name: 'Vault 1' });
    await page.getByRole('button', { name: 'Create' }).click();
    await seeText(vault, 'Vault password is required');
    await choose(vault, page, 'Password key', 'vault password');

    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/templates\/\d+\/tasks$/);
    await page.getByRole('heading', { name: 'Deploy shop' }).waitFor();
    await page.getByRole('tab', { name: 'Details' }).click();
    await seeText(page, 'Region, Replicas');
    await seeText(page, 'deploy.yml');
  });

  it('refuses to delete a key that an inventory uses and names the users', async () => {
    await page.goto(`${projectPath}/keys`);
    await page.getByRole('button', { name: 'Delete deploy key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cannot delete' });
    await dialog.waitFor();
    await dialog.getByRole('link', { name: 'production' }).waitFor();
    await dialog.getByRole('link', { name: 'shop app' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('cell', { name: 'deploy key', exact: true }).waitFor();
  });

  it('adds views, reorders them and keeps the order after a reload', async () => {
    await page.goto(`${projectPath}/templates`);
    const dialog = await openDialog(page, 'Edit views');
    for (const title of ['Production', 'Staging']) {
      await dialog.getByRole('button', { name: 'Add view' }).click();
      await dialog.getByLabel('View title').fill(title);
      await dialog.getByRole('button', { name: 'Save view' }).click();
      await dialog.getByText(title, { exact: true }).waitFor();
    }
    await dialog.getByRole('button', { name: 'Move Staging up' }).click();
    await expect
      .poll(async () => (await dialog.getByRole('listitem').allTextContents()).join(','))
      .toBe('Staging,Production');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect
      .poll(async () => (await page.getByRole('tab').allTextContents()).join(','))
      .toBe('All,Staging,Production');
    await page.reload();
    await expect
      .poll(async () => (await page.getByRole('tab').allTextContents()).join(','))
      .toBe('All,Staging,Production');
  });

  it('hides a template column and finds it still hidden after a reload', async () => {
    await page.goto(`${projectPath}/templates`);
    await page.getByRole('tab', { name: 'All' }).click();
    await page.getByRole('link', { name: 'Deploy shop' }).waitFor();
    expect(await page.getByRole('columnheader', { name: 'Playbook' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('dialog').getByLabel('Playbook').uncheck();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    expect(await page.getByRole('columnheader', { name: 'Playbook' }).count()).toBe(0);
    await page.reload();
    await page.getByRole('link', { name: 'Deploy shop' }).waitFor();
    expect(await page.getByRole('columnheader', { name: 'Playbook' }).count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: 'Inventory' }).count()).toBe(1);
  });

  it('copies a template, opens the copy, and deletes it back to the list', async () => {
    await page.goto(`${projectPath}/templates`);
    await page.getByRole('button', { name: 'More actions for Deploy shop' }).click();
    await page.getByRole('menuitem', { name: 'Copy' }).click();
    await page.getByRole('heading', { name: 'Deploy shop (copy)' }).waitFor();
    await page.getByRole('button', { name: 'Delete template' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await seeText(page, 'Template "Deploy shop (copy)" deleted');
    await page.getByRole('heading', { name: 'Task Templates' }).waitFor();
    await page.getByRole('link', { name: 'Deploy shop', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Deploy shop (copy)' }).count()).toBe(0);
  });
});
