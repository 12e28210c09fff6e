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
 * An old generation capped at 1 GB: below 2 GB, V8 lets the heap grow to at most ~1.6x the live data after a full
 * collection instead of 4x, so garbage is collected before it fills the resident set (100 sessions on Postgres:
 * 302-355 -> 227-235 MB; the live heap is under 70 MB, and 500 busy sessions stay far below the cap). The price, in
 * three alternating A/B rounds on Postgres: ~10% more CPU per turn (collections run more often) and ~2 ms on the turn
 * p50, next to models that take seconds. A deployment that truly needs more heap starts
 * `node --max-semi-space-size=4 --max-old-space-size=4096 scripts/start.mjs` itself.
 */
export const RUNTIME_V8_FLAGS = Object.freeze(['--max-semi-space-size=4', '--max-old-space-size=1024']);

/**
 * `npm run start:small-host`: for a host short of memory, V8's memory-saving mode and PGlite's WebAssembly kept on
 * V8's baseline compiler. `--liftoff-only` avoids the optimising compiler's transient of ~500 MB at every start
 * with PGlite (it has nothing to compile with Postgres). Measured with `npm run bench -- memory memory-postgres`:
 * 100 sessions in ~295 MB with PGlite (peak ~310 instead of ~800) and ~200 MB with Postgres; the price is longer
 * garbage collections (p99 turn overhead ~1.5-2x) and PGlite statements ~8% slower (~40% at 500 sessions), which is
 * why it is not the default.
 */
export const SMALL_HOST_V8_FLAGS = Object.freeze([...RUNTIME_V8_FLAGS, '--optimize-for-size', '--liftoff-only']);
