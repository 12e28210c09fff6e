import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RUNTIME_V8_FLAGS, SMALL_HOST_V8_FLAGS } from '../../scripts/runtime-flags.mjs';

describe('the runtime flags', () => {
  it('npm start runs node with the flags the bench and the process tests use', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts['start']).toBe(`node ${RUNTIME_V8_FLAGS.join(' ')} scripts/start.mjs`);
  });

  it('npm run start:small-host adds the memory-saving flags the memory bench measures', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts['start:small-host']).toBe(`node ${SMALL_HOST_V8_FLAGS.join(' ')} scripts/start.mjs`);
    expect(SMALL_HOST_V8_FLAGS.slice(0, RUNTIME_V8_FLAGS.length)).toEqual(RUNTIME_V8_FLAGS);
  });
});
