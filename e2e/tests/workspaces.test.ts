import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';
import { choose, openDialog, submitAndClose } from '../support/ui.ts';

const BACKEND_LOGIN = 'tf-state';
const BACKEND_PASSWORD = 'tf-State-Pa55';

describe('terraform workspaces, as a user manages them on the template page', () => {
  const gantry = useGantry();
  let page: Page;
  let projectId = 0;
  let templateId = 0;
  let aliasName = '';

  /** Calls the state backend the way terraform does: HTTP Basic credentials, JSON bodies. */
  async function backend(method: string, alias: string, body: unknown): Promise<number> {
    const response = await fetch(`${gantry.server.url}/api/terraform/${alias}`, {
      method,
      headers: {
        authorization: `Basic ${Buffer.from(`${BACKEND_LOGIN}:${BACKEND_PASSWORD}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    return response.status;
  }
  const pushState = async (alias: string, serial: number) =>
    expect(
      await backend('POST', alias, {
        version: 4,
        serial,
        lineage: 'e2e',
        outputs: { serial: { value: serial, type: 'number' } },
        resources: [],
      }),
    ).toBe(200);

  beforeAll(async () => {
    const infrastructure = await gantry.scriptsProject('Infrastructure', {
      'main.tf': 'terraform {\n  backend "http" {}\n}\n',
    });
    projectId = infrastructure.projectId;
    const base = `/api/project/${projectId}`;
    await gantry.api('POST', `${base}/keys`, {
      name: 'state backend',
      type: 'login_password',
      login_password: { login: BACKEND_LOGIN, password: BACKEND_PASSWORD },
    });
    templateId = await infrastructure.createTemplate('Infra', { app: 'terraform', playbook: '' });
    const template = await gantry.api<{ inventory_id: number }>('GET', `${base}/templates/${templateId}`);
    const keys = await gantry.api<Array<{ id: number; name: string }>>('GET', `${base}/keys`);
    const alias = await gantry.api<{ alias: string }>(
      'POST',
      `${base}/inventory/${template.inventory_id}/terraform/aliases`,
      {
        auth_key_id: keys.find((key) => key.name === 'state backend')?.id,
      },
    );
    aliasName = alias.alias;
    await pushState(alias.alias, 1);
    await pushState(alias.alias, 2);

    page = await gantry.signedInPage({ waitForUrl: /\/project\/\d+\/history/ });
  });

  const workspaceButton = (name: string) =>
    page.getByRole('group', { name: 'Workspaces' }).getByRole('button', { name });
  const actionButton = (name: string) => page.getByRole('button', { name, exact: true });

  it('shows the default workspace with its state history and backend aliases', async () => {
    await page.goto(`/project/${projectId}/templates/${templateId}`);
    await page.getByRole('tab', { name: 'Workspaces' }).click();
    await page.waitForURL(/\/templates\/\d+\/state$/);
    await workspaceButton('Default workspace Infra - default').waitFor();
    expect(await workspaceButton('Infra - default').getAttribute('aria-pressed')).toBe('true');

    const states = page.getByRole('table', { name: 'State' });
    await expect.poll(() => states.getByRole('row').count()).toBe(3);
    await page
      .getByRole('button', { name: /^Show state \d+$/ })
      .first()
      .click();
    const raw = page.getByLabel('Raw state');
    await raw.waitFor();
    expect(await raw.textContent()).toContain('"serial": 2');

    const aliases = page.getByRole('list', { name: 'Backend addresses' });
    await aliases.getByText(`${gantry.server.url}/api/terraform/`).waitFor();
    const dialog = await openDialog(page, 'Add alias');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Key is required').waitFor();
    await choose(dialog, page, /^Credentials/, 'state backend');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => aliases.getByRole('listitem').count()).toBe(2);

    // A lock left behind shows who holds it, and a manager releases it.
    expect(
      await backend('LOCK', aliasName, { ID: 'left-behind', Operation: 'OperationTypeApply', Who: 'ci@runner-7' }),
    ).toBe(200);
    await page.reload();
    await page.getByText(/Locked by ci@runner-7 \(OperationTypeApply\)/).waitFor();
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Unlock' }).click();
    await expect.poll(() => page.getByText(/Locked by/).count()).toBe(0);
    expect(await backend('LOCK', aliasName, { ID: 'next', Operation: 'OperationTypeApply', Who: 'me' })).toBe(200);
    expect(await backend('UNLOCK', aliasName, { ID: 'next' })).toBe(200);
  });

  it('creates a workspace, makes it the default, detaches and re-attaches the old one, and guards the default', async () => {
    // The default workspace cannot be made default again, detached or deleted.
    for (const name of ['Make default', 'Detach', 'Delete']) expect(await actionButton(name).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Workspace', exact: true }).click();
    await page.getByRole('menuitem', { name: 'New workspace' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Workspace name is required').waitFor();
    await dialog.getByLabel(/^Workspace name/).fill('staging');
    await submitAndClose(dialog, 'Create');
    expect(await workspaceButton('staging').getAttribute('aria-pressed')).toBe('true');
    await page.getByText('No state available.').waitFor();
    await page.getByText('There is no aliases.').waitFor();
    await page.getByText('Selects the workspace staging').waitFor();

    await actionButton('Make default').click();
    await workspaceButton('Default workspace staging').waitFor();
    expect(await actionButton('Detach').isDisabled()).toBe(true);

    await workspaceButton('Infra - default').click();
    await actionButton('Detach').click();
    await page.getByText('Workspace Infra - default detached').waitFor();
    await expect.poll(() => workspaceButton('Infra - default').count()).toBe(0);

    await page.getByRole('button', { name: 'Workspace', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Attach workspace' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Attach' }).click();
    await dialog.getByText('Inventory is required').waitFor();
    await choose(dialog, page, /^Workspace/, /Infra - default/);
    await submitAndClose(dialog, 'Attach');
    expect(await workspaceButton('Infra - default').getAttribute('aria-pressed')).toBe('true');
    // Its history came back with it.
    await expect.poll(() => page.getByRole('table', { name: 'State' }).getByRole('row').count()).toBe(3);

    await actionButton('Delete').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Workspace Infra - default deleted').waitFor();
    await expect.poll(() => workspaceButton('Infra - default').count()).toBe(0);

    const template = await gantry.api<{ inventory_id: number }>(
      'GET',
      `/api/project/${projectId}/templates/${templateId}`,
    );
    const workspaces = await gantry.api<Array<{ id: number; name: string }>>(
      'GET',
      `/api/project/${projectId}/inventory?app=terraform&template_id=${templateId}`,
    );
    expect(workspaces.map((w) => w.name)).toEqual(['staging']);
    expect(template.inventory_id).toBe(workspaces[0]?.id);
  });

  it('attaches a workspace nobody holds from the inventory screen', async () => {
    const [noneKey] = await gantry.api<Array<{ id: number }>>('GET', `/api/project/${projectId}/keys`);
    await gantry.api('POST', `/api/project/${projectId}/inventory`, {
      name: 'orphan',
      type: 'terraform-workspace',
      inventory: 'orphan',
      ssh_key_id: noneKey?.id,
    });
    await page.goto(`/project/${projectId}/inventory`);
    const dialog = await openDialog(page, 'Attach orphan');
    await dialog.getByRole('button', { name: 'Attach' }).click();
    await dialog.getByText('Template is required').waitFor();
    await choose(dialog, page, /^Template/, 'Infra');
    await dialog.getByRole('button', { name: 'Attach' }).click();
    await page.getByText('Workspace orphan attached to Infra').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Attach orphan' }).count()).toBe(0);

    await page.goto(`/project/${projectId}/templates/${templateId}/state`);
    await workspaceButton('orphan').waitFor();
    await workspaceButton('Default workspace staging').waitFor();
  });
});
