/** Whether this machine can run the headless-Chromium suites (no vitest import: the reporter reads it too). */
import { existsSync } from 'node:fs';

/** Where the browser is (the CI script installs Debian's package there). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Suites that need the browser end their name with this, so the closing report can name the ones skipped. */
export const BROWSER_SUITE_MARK = '[headless Chromium]';

/** The one command that installs the browser these suites need. */
export const INSTALL_BROWSER_COMMAND = 'sudo apt-get install -y chromium';

/** True when the browser is installed; under `CI=true` we never skip, so a missing browser fails loudly there. */
export function browserTestsEnabled(): boolean {
  return process.env.CI === 'true' || existsSync(CHROMIUM_PATH);
}
