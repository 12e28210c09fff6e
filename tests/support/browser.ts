/** Headless Chromium for console tests and the bench: Debian's `chromium` driven by playwright-core. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from './browser-availability.ts';

export { REPOSITORY_ROOT, freePort, startAppProcess, waitForHealthy, type AppProcess } from './app-process.ts';

export { BROWSER_SUITE_MARK, CHROMIUM_PATH, INSTALL_BROWSER_COMMAND, browserTestsEnabled } from './browser-availability.ts';

/** Where tests write screenshots: an ignored folder (`npm run screenshots` points it at docs/screenshots). */
export const SCREENSHOT_DIRECTORY = process.env.SCREENSHOT_DIR ?? join(fileURLToPath(new URL('../../', import.meta.url)), 'test-results/screenshots');

/** Flags for a quiet, offline, sandbox-free headless run (containers have no user namespaces). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A running browser with one page; `close()` also removes its profile. */
export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Starts Chromium with a fresh user-data-dir and opens one page. */
export async function launchBrowser(options: { viewport?: { width: number; height: number } } = {}): Promise<BrowserSession> {
  const profile = mkdtempSync(join(tmpdir(), 'brainstorm-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: options.viewport ?? { width: 1440, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Collects the page's console errors and failed requests, so a test can assert there were none. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}
