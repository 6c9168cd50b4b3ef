import { describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';
import { openNewDialog, signOut } from '../support/ui.ts';

describe('foundation, as a new user would try it', () => {
  const gantry = useGantry();

  it('a wrong password shows the seeded message and keeps the user on the sign-in page', async () => {
    const page = await gantry.newPage();
    await gantry.signIn(page, { login: gantry.server.adminLogin, password: 'not-the-password' });
    await expect.poll(() => page.getByText('Incorrect login or password').isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await page.context().close();
  });

  it('admin creates a project and a user, adds them as task runner; they see no settings, leave, and sign out', async () => {
    const page = await gantry.signedInPage({ waitForUrl: /\/project\/new/ });

    await page.getByLabel('Project name').fill('Website');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/project\/\d+\/history/);
    await expect.poll(() => page.getByText('Project Website created').isVisible()).toBe(true);
    const projectPath = new URL(page.url()).pathname.replace(/\/history$/, '');

    const dialog = await openNewDialog(page, '/users', 'New user');
    await dialog.getByLabel(/^Name/).fill('Rita Runner');
    await dialog.getByLabel(/^Username/).fill('rita');
    await dialog.getByLabel(/^Email/).fill('rita@example.com');
    await dialog.getByLabel(/^Password/).fill('rita-Pass-123');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByText('User Rita Runner created').isVisible()).toBe(true);
    await page.getByRole('cell', { name: 'rita@example.com' }).waitFor();

    const member = await openNewDialog(page, `${projectPath}/team`, 'New team member');
    await member.getByLabel('User').click();
    await page.getByRole('option', { name: /Rita Runner/ }).click();
    await member.getByLabel('Role').click();
    await page.getByRole('option', { name: /Task Runner/ }).click();
    await member.getByRole('button', { name: 'Link' }).click();
    await page.getByRole('cell', { name: 'rita', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Settings' }).count()).toBeGreaterThan(0);
    await signOut(page);

    await gantry.signIn(page, { login: 'rita', password: 'rita-Pass-123', waitForUrl: /\/project\/\d+\/history/ });
    await page.getByText('Website').first().waitFor();
    expect(await page.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Users' }).count()).toBe(0);

    await page.goto(`${projectPath}/team`);
    await page.getByRole('button', { name: 'Leave project' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Leave project' }).click();
    await page.waitForURL(/\/project\/new|\/project\/\d+/);
    await expect
      .poll(
        async () => (await page.getByText('Website').count()) === 0 || new URL(page.url()).pathname === '/project/new',
      )
      .toBe(true);
    await signOut(page);
    await page.context().close();
  });

  it('a deep link while signed out goes to sign-in and comes back after it, keeping the query string', async () => {
    const page = await gantry.newPage();
    await page.goto('/users?x=1');
    await page.waitForURL(/\/auth\/login/);
    await gantry.signIn(page, { waitForUrl: /\/users\?x=1$/ });
    await page.getByRole('button', { name: 'New user' }).waitFor();
    // Followed once: the base page leads to a project again, not back to the link.
    await page.goto('/');
    await page.waitForURL(/\/project\/(new|\d+\/history)$/);
    await page.context().close();
  });
});
