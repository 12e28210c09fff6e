/**
 * The last lines of `npm test`: which suites were skipped on this machine and the one command that enables
 * them, then a plain `Tests: N passed, N failed, N skipped` line that any reader (or CI) understands.
 */
import type { Reporter, SerializedError, TestModule } from 'vitest/node';
import { BROWSER_SUITE_MARK, CHROMIUM_PATH, INSTALL_BROWSER_COMMAND } from './browser-availability.ts';

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
  skippedBrowserFiles: Set<string>;
  /** Files that ended neither passed nor skipped without a failed test: their run broke (a worker process died, a hook threw). */
  brokenFiles: Set<string>;
}

function tallyModule(module: TestModule, tally: Tally): void {
  let failedHere = 0;
  for (const test of module.children.allTests()) {
    const state = test.result().state;
    if (state === 'passed') tally.passed += 1;
    else if (state === 'failed') failedHere += 1;
    else tally.skipped += 1;
  }
  tally.failed += failedHere;
  const state = module.state();
  if (state !== 'passed' && state !== 'skipped' && failedHere === 0) tally.brokenFiles.add(module.moduleId);
  for (const suite of module.children.allSuites()) {
    if (suite.name.endsWith(BROWSER_SUITE_MARK) && suite.state() === 'skipped') tally.skippedBrowserFiles.add(module.moduleId);
  }
}

/** A vitest reporter that prints the closing lines after the default reporter's summary. */
export default class ClosingLineReporter implements Reporter {
  private closingLines: string[] = [];

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError> = []): void {
    const tally: Tally = { passed: 0, failed: 0, skipped: 0, skippedBrowserFiles: new Set(), brokenFiles: new Set() };
    for (const module of modules) tallyModule(module, tally);
    const root = process.cwd() + '/';
    const lines: string[] = [];
    // A file whose worker process died counts its tests as neither passed nor failed: without these lines the
    // closing line alone would read as a clean run.
    if (tally.brokenFiles.size > 0) {
      lines.push(`${tally.brokenFiles.size} test file(s) did not finish:`);
      for (const file of [...tally.brokenFiles].sort()) lines.push(`  - ${file.replace(root, '')}`);
    }
    if (unhandledErrors.length > 0) lines.push(`${unhandledErrors.length} error(s) outside any test (printed above)`);
    if (tally.skippedBrowserFiles.size > 0) {
      const files = [...tally.skippedBrowserFiles].map((file) => file.replace(root, '')).sort();
      lines.push(`Skipped ${files.length} browser suite(s), Chromium is not installed at ${CHROMIUM_PATH}:`);
      for (const file of files) lines.push(`  - ${file}`);
      lines.push(`Enable them with: ${INSTALL_BROWSER_COMMAND}   (or set CHROMIUM_PATH to a Chromium binary)`);
    }
    lines.push(`Tests: ${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped`);
    this.closingLines = lines;
  }

  // The default reporter prints its summary in `onFinished`; printing here too, after it, keeps ours last.
  onFinished(): void {
    process.stdout.write(`\n${this.closingLines.join('\n')}\n`);
  }
}
