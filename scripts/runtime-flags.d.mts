/** The V8 flags Brainstorm runs with (see runtime-flags.mjs). */
export declare const RUNTIME_V8_FLAGS: readonly string[];
