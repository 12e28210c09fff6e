import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  inSmallHostMode,
  mallocSettingsToAdd,
  DEFAULT_MODE_MALLOC_ENV,
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

  it('npm start sets glibc to map blocks of 16 KB and more on their own in the small-host mode, to two arenas and an 8 MB trim threshold otherwise, once, and keeps the malloc settings a person chose; with PGlite only', () => {
    const small = { glibc: true, embeddedDatabase: true, smallHost: true };
    expect(RUNTIME_MALLOC_ENV).toEqual({ MALLOC_MMAP_THRESHOLD_: '16384' });
    expect(mallocSettingsToAdd({ env: {}, ...small })).toEqual({ MALLOC_MMAP_THRESHOLD_: '16384' });
    // The default mode maps no blocks on their own (that cost every start 1.5-1.9 s for ~10 MB); it keeps two arenas,
    // and gives back free memory above 8 MB at an arena's top (glibc would keep up to 64 MB once V8's compiler ran).
    const defaultMode = { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '8388608' };
    expect(DEFAULT_MODE_MALLOC_ENV).toEqual(defaultMode);
    expect(mallocSettingsToAdd({ env: {}, ...small, smallHost: false })).toEqual(defaultMode);
    expect(mallocSettingsToAdd({ env: defaultMode, ...small, smallHost: false })).toEqual({});
    expect(mallocSettingsToAdd({ env: { MALLOC_ARENA_MAX: '8' }, ...small, smallHost: false })).toEqual({ MALLOC_TRIM_THRESHOLD_: '8388608' });
    expect(mallocSettingsToAdd({ env: { MALLOC_TRIM_THRESHOLD_: '131072' }, ...small, smallHost: false })).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(mallocSettingsToAdd({ env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' }, ...small, smallHost: false })).toEqual({});
    expect(mallocSettingsToAdd({ env: {}, ...small, smallHost: false, glibc: false })).toEqual({});
    expect(mallocSettingsToAdd({ env: {}, ...small, smallHost: false, embeddedDatabase: false })).toEqual({});
    // Already set (the replaced process, or the person's choice): nothing to add, so no second replacement.
    expect(mallocSettingsToAdd({ env: { MALLOC_MMAP_THRESHOLD_: '16384' }, ...small })).toEqual({});
    expect(mallocSettingsToAdd({ env: { MALLOC_MMAP_THRESHOLD_: '131072' }, ...small })).toEqual({});
    expect(mallocSettingsToAdd({ env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, ...small })).toEqual({});
    expect(mallocSettingsToAdd({ env: { GLIBC_TUNABLES: 'glibc.rtld.optional_static_tls=512' }, ...small })).toEqual({ MALLOC_MMAP_THRESHOLD_: '16384' });
    expect(mallocSettingsToAdd({ env: {}, ...small, glibc: false })).toEqual({});
    // With Postgres there is no WebAssembly compiler transient to give back, and the burst held more.
    expect(mallocSettingsToAdd({ env: {}, ...small, embeddedDatabase: false })).toEqual({});
  });

  it('knows the small-host mode by its flags, given on the command line or about to be added', () => {
    const added = SMALL_HOST_V8_FLAGS.filter((flag) => !RUNTIME_V8_FLAGS.includes(flag));
    expect(inSmallHostMode(SMALL_HOST_V8_FLAGS, [])).toBe(true);
    expect(inSmallHostMode(RUNTIME_V8_FLAGS, added)).toBe(true);
    expect(inSmallHostMode(RUNTIME_V8_FLAGS, [])).toBe(false);
    expect(inSmallHostMode(['--liftoff-only'], [])).toBe(false);
  });
});
