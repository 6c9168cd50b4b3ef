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
  return context.newPage();
}
