/**
 * Vitest's global setup: every temporary directory the tests make (apps' data directories, local document mirrors,
 * processes they start) goes under one directory of this run, removed when the run ends. Each full run left ~190
 * directories in the system's temporary folder before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Points TMPDIR (read by `os.tmpdir()` in the test processes and every process they start) at a directory of this run. */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'brainstorm-tests-'));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
