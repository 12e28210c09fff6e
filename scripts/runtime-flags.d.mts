/** The V8 flags Brainstorm runs with (see runtime-flags.mjs). */
export declare const RUNTIME_V8_FLAGS: readonly string[];
/** The V8 flags of `npm run start:small-host` (see runtime-flags.mjs). */
export declare const SMALL_HOST_V8_FLAGS: readonly string[];
/** Below this much memory `npm start` runs in the small-host mode by itself (see runtime-flags.mjs). */
export declare const SMALL_HOST_BELOW_BYTES: number;
/** The flags `npm start` adds for the small-host mode, none when it is not due (see runtime-flags.mjs). */
export declare function smallHostFlagsToAdd(host: { setting: string | undefined; memoryBytes: number; execArgv: readonly string[] }): string[];
/** glibc's malloc settings `npm start` runs with on Linux in the small-host mode (see runtime-flags.mjs). */
export declare const RUNTIME_MALLOC_ENV: Readonly<Record<string, string>>;
/** glibc's malloc settings `npm start` runs with on Linux in the default mode with PGlite (see runtime-flags.mjs). */
export declare const DEFAULT_MODE_MALLOC_ENV: Readonly<Record<string, string>>;
/** The malloc settings `npm start` adds to its environment, none when not due (see runtime-flags.mjs). */
export declare function mallocSettingsToAdd(host: {
  env: Record<string, string | undefined>;
  glibc: boolean;
  embeddedDatabase: boolean;
  smallHost: boolean;
}): Record<string, string>;
/** Whether a process started with `execArgv` and given `added` runs in the small-host mode (see runtime-flags.mjs). */
export declare function inSmallHostMode(execArgv: readonly string[], added: readonly string[]): boolean;
