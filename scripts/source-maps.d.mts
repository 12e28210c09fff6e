/** Enables source-mapped stack traces for files outside node_modules (see source-maps.mjs). */
export declare function enableOwnSourceMaps(): void;
