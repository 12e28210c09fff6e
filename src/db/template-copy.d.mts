/** Copies a PGlite template into a fresh data directory, beside it first, then renamed (see template-copy.mjs). */
export function copyTemplate(template: string, directory: string): void;
/** Removes the copies beside `directory` that a killed process left behind (see template-copy.mjs). */
export function removeAbandonedCopies(directory: string, isAlive?: (pid: number) => boolean): void;
