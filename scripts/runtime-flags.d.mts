/** The V8 flags Brainstorm runs with (see runtime-flags.mjs). */
export declare const RUNTIME_V8_FLAGS: readonly string[];
/** The V8 flags of `npm run start:small-host` (see runtime-flags.mjs). */
export declare const SMALL_HOST_V8_FLAGS: readonly string[];
/** Below this much memory `npm start` runs in the small-host mode by itself (see runtime-flags.mjs). */
export declare const SMALL_HOST_BELOW_BYTES: number;
/** The flags `npm start` adds for the small-host mode, none when it is not due (see runtime-flags.mjs). */
export declare function smallHostFlagsToAdd(host: { setting: string | undefined; memoryBytes: number; execArgv: readonly string[] }): string[];
