/** `source` with every character outside ASCII escaped, and where an original column lands in it (see ascii-source.mjs). */
export declare function asciiSource(source: string): { text: string; column: (line: number, column: number) => number };
