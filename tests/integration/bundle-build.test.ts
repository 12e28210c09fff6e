import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_PACKAGES, buildBundle } from '../../scripts/bundle.mjs';

const directory = mkdtempSync(join(tmpdir(), 'brainstorm-bundle-'));
const target = join(directory, 'build');
afterAll(() => rmSync(directory, { recursive: true, force: true }));
// npm start falls back to tsx when the build fails, and the app would start all the same: only this test says so.
beforeAll(() => buildBundle(target), 60_000);

const files = (suffix: string) => readdirSync(target).filter((name) => name.endsWith(suffix));
/** The packages a chunk leaves to Node: its static and dynamic imports of bare names. */
const importedPackages = (text: string) => [...text.matchAll(/(?:from|import\()\s*"([^".][^"]*)"/g)].map((match) => match[1] ?? '');

describe('the bundle npm start runs', () => {
  it('carries the packages Node is slowest to load instead of importing them', () => {
    const imported = files('.js').flatMap((name) => importedPackages(readFileSync(join(target, name), 'utf8')));
    expect(imported).toContain('@electric-sql/pglite');
    for (const name of BUNDLED_PACKAGES) expect(imported.filter((specifier) => specifier === name || specifier.startsWith(`${name}/`))).toEqual([]);
  });

  it('is ASCII text, which V8 holds one byte a character (a single em dash in a chunk doubles its whole source in the heap)', () => {
    const notAscii = files('.js').filter((name) => /[\u0080-\u2027\u202a-\uffff]/.test(readFileSync(join(target, name), 'utf8')));
    expect(notAscii).toEqual([]);
  });

  it('maps our own sources only, by absolute URL', () => {
    const sources = files('.map').flatMap((name) => (JSON.parse(readFileSync(join(target, name), 'utf8')) as { sources: string[] }).sources);
    expect(sources).toContainEqual(expect.stringMatching(/^file:\/\/.*\/src\/index\.ts$/));
    expect(sources.filter((source) => !/^file:\/\/.*\/src\/.*\.(ts|mjs)$/.test(source))).toEqual([]);
  });

  it('places a line of our code in its source file, and leaves a line of a bundled package unmapped', () => {
    const where = (pattern: RegExp) => {
      const chunk = files('.js').find((name) => new RegExp(pattern.source, 'm').test(readFileSync(join(target, name), 'utf8'))) ?? '';
      const lines = readFileSync(join(target, chunk), 'utf8').split('\n');
      const line = lines.findIndex((text) => pattern.test(text));
      const map = new SourceMap(JSON.parse(readFileSync(join(target, `${chunk}.map`), 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
      const entry = map.findEntry(line, lines[line]?.search(/\S/) ?? 0);
      return 'originalSource' in entry ? entry.originalSource : undefined;
    };
    expect(where(/^var ConfigError = class/)).toMatch(/\/src\/config\/config-error\.ts$/);
    expect(where(/^var Migrator = class/)).toBeUndefined();
  });
});
