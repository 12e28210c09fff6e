import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  mallocSettingsToAdd,
  RUNTIME_MALLOC_ENV,
  RUNTIME_V8_FLAGS,
  SMALL_HOST_BELOW_BYTES,
  SMALL_HOST_V8_FLAGS,
  smallHostFlagsToAdd,
} from '../../scripts/runtime-flags.mjs';

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

  it('npm start adds the small-host flags below 1.5 GB of memory, or when SMALL_HOST says yes, and never twice', () => {
    const GB = 1024 ** 3;
    const added = SMALL_HOST_V8_FLAGS.filter((flag) => !RUNTIME_V8_FLAGS.includes(flag));
    expect(added).toEqual(['--optimize-for-size', '--liftoff-only']);
    expect(smallHostFlagsToAdd({ setting: undefined, memoryBytes: 1 * GB, execArgv: RUNTIME_V8_FLAGS })).toEqual(added);
    expect(smallHostFlagsToAdd({ setting: 'auto', memoryBytes: SMALL_HOST_BELOW_BYTES - 1, execArgv: RUNTIME_V8_FLAGS })).toEqual(added);
    expect(smallHostFlagsToAdd({ setting: '', memoryBytes: SMALL_HOST_BELOW_BYTES, execArgv: RUNTIME_V8_FLAGS })).toEqual([]);
    expect(smallHostFlagsToAdd({ setting: 'auto', memoryBytes: 16 * GB, execArgv: RUNTIME_V8_FLAGS })).toEqual([]);
    expect(smallHostFlagsToAdd({ setting: 'yes', memoryBytes: 16 * GB, execArgv: RUNTIME_V8_FLAGS })).toEqual(added);
    expect(smallHostFlagsToAdd({ setting: 'no', memoryBytes: 1 * GB, execArgv: RUNTIME_V8_FLAGS })).toEqual([]);
    // Started as npm run start:small-host (or already replaced): nothing to add, so no second replacement.
    expect(smallHostFlagsToAdd({ setting: 'yes', memoryBytes: 1 * GB, execArgv: SMALL_HOST_V8_FLAGS })).toEqual([]);
    expect(smallHostFlagsToAdd({ setting: 'yes', memoryBytes: 1 * GB, execArgv: ['--liftoff-only'] })).toEqual([
      '--max-semi-space-size=4',
      '--heap-growing-percent=100',
      '--optimize-for-size',
    ]);
  });

  it('npm start sets glibc to map blocks of 16 KB and more on their own, once, and keeps the malloc settings a person chose; with PGlite only', () => {
    expect(RUNTIME_MALLOC_ENV).toEqual({ MALLOC_MMAP_THRESHOLD_: '16384' });
    expect(mallocSettingsToAdd({ env: {}, glibc: true, embeddedDatabase: true })).toEqual({ MALLOC_MMAP_THRESHOLD_: '16384' });
    // Already set (the replaced process, or the person's choice): nothing to add, so no second replacement.
    expect(mallocSettingsToAdd({ env: { MALLOC_MMAP_THRESHOLD_: '16384' }, glibc: true, embeddedDatabase: true })).toEqual({});
    expect(mallocSettingsToAdd({ env: { MALLOC_MMAP_THRESHOLD_: '131072' }, glibc: true, embeddedDatabase: true })).toEqual({});
    expect(mallocSettingsToAdd({ env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, glibc: true, embeddedDatabase: true })).toEqual({});
    expect(mallocSettingsToAdd({ env: { GLIBC_TUNABLES: 'glibc.rtld.optional_static_tls=512' }, glibc: true, embeddedDatabase: true })).toEqual({
      MALLOC_MMAP_THRESHOLD_: '16384',
    });
    expect(mallocSettingsToAdd({ env: {}, glibc: false, embeddedDatabase: true })).toEqual({});
    // With Postgres there is no WebAssembly compiler transient to give back, and the burst held more.
    expect(mallocSettingsToAdd({ env: {}, glibc: true, embeddedDatabase: false })).toEqual({});
  });
});
