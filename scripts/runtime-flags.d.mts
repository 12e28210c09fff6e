/** The V8 flags Brainstorm runs with (see runtime-flags.mjs). */
export declare const RUNTIME_V8_FLAGS: readonly string[];
/** The V8 flags of `npm run start:small-host` (see runtime-flags.mjs). */
export declare const SMALL_HOST_V8_FLAGS: readonly string[];
