import type { Locator, Page } from 'playwright-core';

/**
 * Signs in through the sign-in form. It stays on the sign-in page when already there, so a
 * redirect the page carries (a deep link opened while signed out) is kept.
 */
export async function signIn(
  page: Page,
  login: string,
  password: string,
  options: { waitForUrl?: RegExp } = {},
): Promise<void> {
  if (new URL(page.url()).pathname !== '/auth/login') await page.goto('/auth/login');
  await page.getByLabel('Username or email').fill(login);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  if (options.waitForUrl) await page.waitForURL(options.waitForUrl);
}

/** Signs out through the account menu and waits for the sign-in page. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account and settings' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL(/\/auth\/login/);
}

/**
 * Picks an option of an MUI select found by its label. A string names the option exactly, a
 * pattern matches part of it. The list opens in a popover outside `scope`, hence `page`.
 */
export async function choose(
  scope: Page | Locator,
  page: Page,
  label: string | RegExp,
  option: string | RegExp,
): Promise<void> {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

/** Picks several options of a multiple select, then closes its list. */
export async function chooseMany(scope: Page | Locator, page: Page, label: string, options: string[]): Promise<void> {
  await scope.getByRole('combobox', { name: label }).click();
  for (const option of options) await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('listbox').waitFor({ state: 'detached' });
}

/** Waits until the text shows somewhere in `scope`. */
export async function seeText(scope: Page | Locator, text: string | RegExp): Promise<void> {
  await scope.getByText(text).first().waitFor();
}

/** Waits until each of the texts shows somewhere in `scope`. */
async function seeTexts(scope: Page | Locator, texts: (string | RegExp)[]): Promise<void> {
  for (const text of texts) await seeText(scope, text);
}

/** Clicks the button `button` of `scope` (a form's Create or Save) and waits until each of the texts shows in it. */
export async function submitAndSee(scope: Page | Locator, button: string, texts: (string | RegExp)[]): Promise<void> {
  await scope.getByRole('button', { name: button }).click();
  await seeTexts(scope, texts);
}

/** Clicks the button `button` of a dialog (its Save, Create or Apply) and waits until the dialog has closed. */
export async function submitAndClose(dialog: Locator, button: string): Promise<void> {
  await dialog.getByRole('button', { name: button }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Clicks the page's button `button` and returns the dialog it opens. */
export async function openDialog(page: Page, button: string): Promise<Locator> {
  await page.getByRole('button', { name: button }).click();
  return page.getByRole('dialog');
}

/** Opens `path`, clicks its button `button` (a "New …" one) and returns the dialog it opens. */
export async function openNewDialog(page: Page, path: string, button: string): Promise<Locator> {
  await page.goto(path);
  return openDialog(page, button);
}
