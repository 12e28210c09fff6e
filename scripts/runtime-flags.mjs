// @ts-check
/**
 * The V8 flags Brainstorm runs with: `npm start` passes them on node's command line (package.json), the bench and
 * the tests that start the app in a process of its own pass the same (a test keeps package.json in step).
 *
 * A young generation of 4 MB per semi-space instead of V8's default (up to 16-32 MB): a chat bot's allocations are
 * small and short-lived, so scavenges stay cheap, and resident memory with 100 live sessions drops by about 100 MB
 * (`npm run bench -- memory memory-postgres`: 565 -> ~425 MB on PGlite, 371 -> ~265 MB on Postgres). The turn bench
 * moved within its noise (`npm run bench -- session`).
 *
 * Not `--max-old-space-size=1024`, though it saves ~100 MB with 100 sessions (below a 2 GB cap V8 grows the heap to
 * ~1.6x the live data instead of 4x; Postgres: 302-355 -> 227-235 MB): under load the collections it forces cost
 * more than the memory is worth (`npm run bench -- load-postgres`, two alternating rounds: 500-session turn overhead
 * p50 856-1244 -> 2013-2681 ms, event-loop lag p99 29-33 -> 48-49 ms).
 *
 * An old generation that grows to twice its live data before V8 collects it again (`--heap-growing-percent=100`),
 * instead of the up to four times V8 allows a heap whose cap is 2 GB or more. After a burst of turns the old
 * generation holds the burst's garbage until its next full collection, and this factor decides how much: with 100
 * sessions right after a turn in each, 226-236 MB instead of 276-318 on Postgres and 304-310 instead of 345-415 on
 * PGlite (`npm run bench -- memory memory-postgres`, alternating runs on one machine). The 200-session load run
 * (`BENCH_LOAD_SESSIONS=200 npm run bench -- load-postgres`) moved within its noise: turn overhead p50 69-118 ms
 * against 90-94, p99 293-310 against 294-394 (200, as 500 sessions overloaded that machine's two cores either way).
 * At 50 (1.5x) the extra collections cost it about a third. Unlike the cap above, the heap may still grow as far as
 * its live data needs.
 */
export const RUNTIME_V8_FLAGS = Object.freeze(['--max-semi-space-size=4', '--heap-growing-percent=100']);

/**
 * `npm run start:small-host`: for a host short of memory, V8's memory-saving mode and PGlite's WebAssembly kept on
 * V8's baseline compiler. `--liftoff-only` avoids the optimising compiler's transient of ~500 MB at every start
 * with PGlite (it has nothing to compile with Postgres). Measured with `npm run bench -- memory memory-postgres`:
 * 100 sessions in ~295 MB with PGlite (peak ~310 instead of ~800) and ~200 MB with Postgres; the price is longer
 * garbage collections (p99 turn overhead ~1.5-2x) and PGlite statements ~8% slower (~40% at 500 sessions), which is
 * why it is not the default.
 */
export const SMALL_HOST_V8_FLAGS = Object.freeze([...RUNTIME_V8_FLAGS, '--optimize-for-size', '--liftoff-only']);

/**
 * Below this much memory (the host's RAM, or its container's limit when lower) `npm start` runs in the small-host
 * mode by itself: in the default one every start with PGlite peaks near 800 MB while V8's optimising compiler works
 * through one of PGlite's WebAssembly functions (~600 MB of compiler memory for it alone). Measured in a cgroup
 * memory limit: at 512 MB the default mode is killed before it is ready and the small-host mode runs in ~330 MB; at
 * 768 MB and 1 GB the default mode survives only by the kernel dropping the page cache, with a host's own needs on top.
 */
export const SMALL_HOST_BELOW_BYTES = 1536 * 1024 * 1024;

/**
 * The flags `npm start` adds to its own for the small-host mode: those of SMALL_HOST_V8_FLAGS that `execArgv` lacks,
 * when `setting` (SMALL_HOST) is `yes`, or `auto` (or unset) on a host with less than SMALL_HOST_BELOW_BYTES; none
 * otherwise.
 * @param {{ setting: string | undefined, memoryBytes: number, execArgv: readonly string[] }} host
 * @returns {string[]}
 */
export function smallHostFlagsToAdd({ setting, memoryBytes, execArgv }) {
  const choice = setting?.trim() || 'auto';
  const wanted = choice === 'yes' || (choice === 'auto' && memoryBytes < SMALL_HOST_BELOW_BYTES);
  return wanted ? SMALL_HOST_V8_FLAGS.filter((flag) => !execArgv.includes(flag)) : [];
}

/**
 * glibc's malloc in the small-host mode, as `npm start` sets it on Linux: blocks of 16 KB and more are mapped on their
 * own and unmapped when freed, instead of coming from the heap that glibc seldom gives back, so memory freed by V8
 * leaves the process. Measured with `npm run bench -- memory`: the small-host mode held 236 MB with 100 sessions
 * instead of 270-281.
 *
 * Not in the default mode any more. There V8's optimising compiler works through PGlite's WebAssembly in many such
 * blocks, and on Node 24 the setting cost every start 1.5-1.9 s for ~10 MB. Alternating runs, 2026-11-28:
 * - start to ready 3.9-4.7 s with it, 2.2-2.4 s without;
 * - `rss_mb_100_sessions` 312-319 MB with it, 323-330 without;
 * - settled 250-279 MB with it, 261-262 without.
 * The small-host mode has no such compiler (`--liftoff-only`), so it keeps the setting. A person's own
 * MALLOC_MMAP_THRESHOLD_ (or glibc.malloc tunables in GLIBC_TUNABLES) is kept; 131072 is glibc's own default.
 */
export const RUNTIME_MALLOC_ENV = Object.freeze({ MALLOC_MMAP_THRESHOLD_: '16384' });

/**
 * glibc's malloc in the default mode with PGlite: two arenas instead of up to eight per core, and free memory at the
 * top of an arena given back to the system above 8 MB. V8's optimising compiler
 * works through PGlite's WebAssembly on its background threads at every start (the ~800 MB peak above); each thread
 * takes an arena of its own, and what the compiler freed stays in them, fragmented, for the life of the process. With
 * two arenas most of it is reused by the app. Measured with `npm run bench -- memory`, alternating runs on one machine
 * (2026-12-05): `rss_mb_100_sessions` 405-418 MB without it, 372-377 with it (353-372 with one arena); settled 348-368
 * without, 306-311 with. Start to ready (1.54-1.75 s either way, six alternating starts) and the turn moved within
 * their noise: PGlite turn overhead p50 33-45 ms without, 33-43 with (three alternating rounds of 60 turns on Node 24,
 * the bench's turn with the models in a process of their own). With Postgres it saved nothing measurable (221-227 MB
 * without, 216-235 with), so there `npm start` does not replace its process for it.
 *
 * The trim threshold: glibc raises its own (to twice the largest block it mapped on its own and freed, up to 64 MB)
 * once the compiler frees its large blocks, and from then on keeps up to that much free memory at the top of each
 * arena. Set, it stays where it is put. Measured with `npm run bench -- memory`, alternating runs (2026-12-05):
 * `rss_mb_100_sessions` 380-382 MB without, 328-333 with 8 MB (321-334 with glibc's 128 KB default set explicitly);
 * settled 314-318 without, 271-272 with. Start to ready: 1505-2038 ms without, 1568-2088 with 8 MB (six alternating
 * starts each, within the noise), but 1732-1888 with 128 KB against 1505-1542: giving back and taking again pages
 * the compiler keeps using cost every start ~250 ms. The turn's CPU and the 500-session load run moved within their
 * noise.
 */
export const DEFAULT_MODE_MALLOC_ENV = Object.freeze({ MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: String(8 * 1024 * 1024) });

/**
 * The malloc settings `npm start` adds that `env` lacks, with the embedded database on glibc only (musl and the others
 * ignore them): RUNTIME_MALLOC_ENV in the small-host mode, DEFAULT_MODE_MALLOC_ENV otherwise; none when the person
 * tuned glibc's malloc themselves.
 * @param {{ env: Record<string, string | undefined>, glibc: boolean, embeddedDatabase: boolean, smallHost: boolean }} host
 * @returns {Record<string, string>}
 */
export function mallocSettingsToAdd({ env, glibc, embeddedDatabase, smallHost }) {
  if (!glibc || !embeddedDatabase || env['GLIBC_TUNABLES']?.includes('glibc.malloc.')) return {};
  const settings = smallHost ? RUNTIME_MALLOC_ENV : DEFAULT_MODE_MALLOC_ENV;
  return Object.fromEntries(Object.entries(settings).filter(([name]) => env[name] === undefined));
}

/** Whether a process started with `execArgv` and given `added` runs in the small-host mode (all its flags on). */
export function inSmallHostMode(/** @type {readonly string[]} */ execArgv, /** @type {readonly string[]} */ added) {
  return SMALL_HOST_V8_FLAGS.every((flag) => execArgv.includes(flag) || added.includes(flag));
}
