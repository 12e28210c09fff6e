/** The packages bundled with our code (see bundle.mjs). */
export declare const BUNDLED_PACKAGES: readonly string[];
/** Whether the bundle takes in what `specifier`, imported from `importer`, names (see bundle.mjs). */
export declare function bundlesImport(specifier: string, importer: string): boolean;
/** A source map that maps our own code only, its sources named by absolute URL (see bundle.mjs). */
export declare function ownMappingsOnly<T extends { sources: string[]; mappings: string; names?: string[] }>(map: T, directory: string): T;
/** Builds the bundle of `src/index.ts` into `target` (see bundle.mjs). */
export declare function buildBundle(target: string): Promise<void>;
/** The bundle's entry file, built if needed; null when it cannot be built (see bundle.mjs). */
export declare function bundledEntry(): Promise<string | null>;
/** A map's generated columns moved as `column` says (see bundle.mjs). */
export declare function shiftedMappings(mappings: string, column: (line: number, column: number) => number): string;
