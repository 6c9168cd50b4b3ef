import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useGantry } from '../support/gantry-fixture.ts';

/**
 * Before the split the sign-in page fetched 1,269 KB of script (all of the app); now about 665 KB.
 * A form library or MUI's TextField (select, menu, popover) back on the page would add about 140 KB.
 */
const SIGN_IN_SCRIPT_BUDGET_KB = 720;

/**
 * The scripts a page fetches, by path, uncompressed. Bodies arrive after their responses: `settled`
 * waits for those under way, so an assertion that a script is absent never runs before it is recorded.
 */
function recordScripts(page: Page): { scripts: Map<string, Buffer>; settled: () => Promise<void> } {
  const scripts = new Map<string, Buffer>();
  const pending = new Set<Promise<void>>();
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = response.body().then(
      (content) => void scripts.set(new URL(response.url()).pathname, content),
      () => undefined,
    );
    pending.add(body);
    void body.then(() => pending.delete(body));
  });
  return { scripts, settled: async () => void (await Promise.all(pending)) };
}

async function openSignIn(browser: Browser, url: string, locale: string) {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 }, locale });
  const page = await context.newPage();
  const { scripts, settled } = recordScripts(page);
  await page.goto('/');
  await page.waitForURL(/\/auth\/login/);
  await page.locator('input[type="password"]').waitFor();
  await page.waitForLoadState('networkidle');
  await settled();
  return { page, scripts, settled };
}

describe('the first page ships only what it needs', () => {
  const gantry = useGantry();

  it('the sign-in page fetches none of the signed-in app; signing in fetches it, its texts and those of a language picked later', async () => {
    const { page, scripts, settled } = await openSignIn(gantry.browser, gantry.server.url, 'en-US');
    const paths = [...scripts.keys()];
    expect(paths.filter((path) => /\/(signed-in-routes|app-shell|task-log-host|history-page)-/.test(path))).toEqual([]);
    const totalKb = [...scripts.values()].reduce((sum, body) => sum + body.length, 0) / 1024;
    expect(totalKb).toBeLessThan(SIGN_IN_SCRIPT_BUDGET_KB);

    await gantry.signIn(page, { waitForUrl: /\/project\/new/ });
    await page.getByLabel('Project name').fill('Shipping');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/project\/\d+\/history/);
    await settled();
    expect([...scripts.keys()].some((path) => /\/signed-in-routes-/.test(path))).toBe(true);
    // The texts of the areas left out of the sign-in page (here "resources") arrive with the signed-in app.
    await page.getByRole('link', { name: 'Key Store' }).click();
    await page.getByRole('heading', { name: 'Key Store' }).waitFor();

    // Switching language fetches every area of the new one, not just its sign-in texts.
    await page.getByRole('button', { name: 'Account and settings' }).click();
    await page.getByRole('menuitem', { name: /Language/ }).click();
    await page.getByRole('menuitem', { name: 'Deutsch' }).click();
    await page.getByRole('heading', { name: 'Schlüsselspeicher' }).waitFor();
    await page.context().close();
  });

  it('only the active language is fetched: a German browser gets German texts and no English catalogue', async () => {
    const { page, scripts } = await openSignIn(gantry.browser, gantry.server.url, 'de-DE');
    await page.getByRole('heading', { name: 'Bei Gantry anmelden' }).waitFor();
    const paths = [...scripts.keys()];
    expect(paths.some((path) => /\/assets\/de-/.test(path))).toBe(true);
    expect(paths.filter((path) => /\/assets\/en-/.test(path))).toEqual([]);
    const english = 'Ask your Gantry administrator to create an account';
    expect(paths.filter((path) => scripts.get(path)?.toString('utf8').includes(english))).toEqual([]);
    await page.context().close();
  });
});
