/** `describe` for suites that drive headless Chromium (kept apart from browser.ts, which the bench loads without vitest). */
import { describe } from 'vitest';
import { BROWSER_SUITE_MARK, browserTestsEnabled } from './browser-availability.ts';

/**
 * A suite that needs the browser: on a fresh machine without it the suite is skipped (and named in the
 * closing lines of `npm test`), never failed; under `CI=true` it always runs.
 */
export function describeInBrowser(name: string, suite: () => void): void {
  (browserTestsEnabled() ? describe : describe.skip)(`${name} ${BROWSER_SUITE_MARK}`, suite);
}
