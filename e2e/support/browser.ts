import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM = process.env.GANTRY_CHROMIUM ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with the flags this sandbox needs. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}; install it (apt-get install chromium) or set GANTRY_CHROMIUM`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/** The window of a new page: 1280 pixels wide and light unless asked otherwise. */
export interface PageOptions {
  width?: number;
  colorScheme?: 'light' | 'dark';
  /** Lets the page read and write the clipboard (a copy button's text). */
  clipboard?: boolean;
}

export async function newPage(browser: Browser, baseURL: string, options: PageOptions = {}): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: options.width ?? 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    locale: 'en-US',
    permissions: options.clipboard ? ['clipboard-read', 'clipboard-write'] : [],
  });
  const page = await context.newPage();
  recordTroubles(page);
  return page;
}

/** Where screenshots go: the folder GANTRY_E2E_SHOTS names, for a person to look at; none are taken without it. */
export const shotsFolder = process.env.GANTRY_E2E_SHOTS;

/** Saves what `page` shows as `<name>.png` in the shots folder, when there is one. */
export async function saveShot(page: Page, name: string): Promise<void> {
  if (shotsFolder) await page.screenshot({ path: `${shotsFolder}/${name}.png` });
}

/** What went wrong inside each page (uncaught errors, console errors), told when a test fails. */
const troubles = new WeakMap<Page, string[]>();

function recordTroubles(page: Page): void {
  const seen: string[] = [];
  troubles.set(page, seen);
  page.on('pageerror', (error) => seen.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') seen.push(`console: ${message.text()}`);
  });
}

/**
 * Where each open page of `browser` is and what it shows: printed after a failed test, so a failure
 * that does not repeat on another machine still says which page, dialog or menu was on screen.
 */
export async function describeOpenPages(browser: Browser): Promise<string> {
  const parts: string[] = [];
  for (const page of browser.contexts().flatMap((context) => context.pages())) {
    const shown = await page
      .locator('body')
      .ariaSnapshot({ timeout: 2_000 })
      .catch((error: unknown) => `(no snapshot: ${String(error)})`);
    const errors = troubles.get(page) ?? [];
    parts.push(
      [`page at ${page.url()}`, ...errors.slice(-10).map((line) => `  ${line}`), shown.slice(0, 4_000)].join('\n'),
    );
  }
  return parts.join('\n\n');
}
