// @ts-check
/**
 * The V8 flags Brainstorm runs with: `npm start` passes them on node's command line (package.json), the bench and
 * the tests that start the app in a process of its own pass the same (a test keeps package.json in step).
 *
 * A young generation of 4 MB per semi-space instead of V8's default (up to 16-32 MB): a chat bot's allocations are
 * small and short-lived, so scavenges stay cheap, and resident memory with 100 live sessions drops by about 100 MB
 * (`npm run bench -- memory memory-postgres`: 565 -> ~425 MB on PGlite, 371 -> ~265 MB on Postgres). The turn bench
 * moved within its noise (`npm run bench -- session`).
 */
export const RUNTIME_V8_FLAGS = Object.freeze(['--max-semi-space-size=4']);
