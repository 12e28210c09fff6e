import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const directory = mkdtempSync(join(tmpdir(), 'brainstorm-source-maps-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A module that throws on its first line, with an inline map placing that line at original.ts:10. */
function throwingModule(path: string): string {
  const map = { version: 3, sources: ['original.ts'], names: [], mappings: 'AASA' };
  const text = `throw new Error('where am I?');\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}\n`;
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** The first stack frame of importing `path` in a fresh Node that called enableOwnSourceMaps first. */
function firstFrame(path: string): string {
  const script = `
    const { enableOwnSourceMaps } = await import(${JSON.stringify(new URL('../../scripts/source-maps.mjs', import.meta.url).href)});
    enableOwnSourceMaps();
    try { await import(${JSON.stringify(`file://${path}`)}); } catch (error) { console.log(error.stack.split('\\n')[1]); }
  `;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
}

describe('enableOwnSourceMaps', () => {
  it("maps our own code's stack traces (the bundle lives outside node_modules)", () => {
    expect(firstFrame(throwingModule(join(directory, '.cache', 'build', 'index.js')))).toMatch(/original\.ts:10/);
  });

  it("leaves the dependencies' maps unread, so the heap does not keep them", () => {
    expect(firstFrame(throwingModule(join(directory, 'node_modules', 'dependency', 'index.js')))).toMatch(/index\.js:1/);
  });
});
