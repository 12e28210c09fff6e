import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RUNTIME_V8_FLAGS } from '../../scripts/runtime-flags.mjs';

describe('the runtime flags', () => {
  it('npm start runs node with the flags the bench and the process tests use', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts['start']).toBe(`node ${RUNTIME_V8_FLAGS.join(' ')} scripts/start.mjs`);
  });
});
