import { decode, encode } from '@jridgewell/sourcemap-codec';
import { describe, expect, it } from 'vitest';
import { bundlesImport, ownMappingsOnly } from '../../scripts/bundle.mjs';

describe('bundlesImport', () => {
  it.each([
    // The bundled packages our code imports, with their subpaths.
    ['kysely', '/app/src/db/migrate.ts', true],
    ['hono/streaming', '/app/src/web/routes.ts', true],
    ['@openai/agents', '/app/src/agents/roles.ts', true],
    // The other packages and Node's built-ins are left to Node.
    ['@electric-sql/pglite', '/app/src/db/create-database.ts', false],
    ['pg', '/app/src/db/create-database.ts', false],
    ['@openai/agents-extensions', '/app/src/agents/roles.ts', false],
    ['node:fs', '/app/src/index.ts', false],
    ['node:fs', '/app/node_modules/dotenv/lib/main.js', false],
    // Whatever a bundled package imports, so nothing resolves from the bundle's folder.
    ['@openai/agents-core', '/app/node_modules/@openai/agents/dist/index.mjs', true],
    ['ws', '/app/node_modules/openai/node_modules/ws/index.js', true],
  ])('%s imported from %s: bundled %s', (specifier, importer, bundled) => {
    expect(bundlesImport(specifier, importer)).toBe(bundled);
  });
});

describe('ownMappingsOnly', () => {
  const map = {
    version: 3,
    sources: ['../../../src/a.ts', '../../../node_modules/dep/index.js', '../../../src/b.ts'],
    names: [],
    mappings: encode([
      [
        [0, 1, 0, 0],
        [4, 1, 3, 2],
        [9, 1, 3, 7],
      ],
      [
        [0, 0, 5, 0],
        [6, 2, 1, 4],
      ],
      [[0, 1, 9, 0]],
      [[0, 1, 9, 5]],
      [
        [0, 0, 7, 0],
        [5, 0, 7, 6],
        [9, 0, 8, 0],
      ],
    ]),
  };
  const rewritten = () => decode(ownMappingsOnly(map, '/app/.cache/build/x').mappings);

  it('keeps our sources, by absolute URL, and drops the dependencies', () => {
    expect(ownMappingsOnly(map, '/app/.cache/build/x').sources).toEqual(['file:///app/src/a.ts', 'file:///app/src/b.ts']);
  });

  it('leaves dependency code unmapped: one segment where a run of it begins, none where it goes on', () => {
    const lines = rewritten();
    expect(lines[0]).toEqual([[0]]);
    expect(lines[2]).toEqual([[0]]);
    expect(lines[3]).toEqual([]);
  });

  it("points our segments at their sources' new places, one where each source line begins", () => {
    const lines = rewritten();
    expect(lines[1]).toEqual([
      [0, 0, 5, 0],
      [6, 1, 1, 4],
    ]);
    expect(lines[4]).toEqual([
      [0, 0, 7, 0],
      [9, 0, 8, 0],
    ]);
  });
});
