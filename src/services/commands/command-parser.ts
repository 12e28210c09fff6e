/** A `!command args` line, parsed. */
export interface ParsedCommand {
  name: string;
  args: string;
}

/** Parses `!name args` (case-insensitive name); null when the text is not a command. */
export function parseCommand(text: string): ParsedCommand | null {
  const match = /^!([a-zA-Z][a-zA-Z-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return null;
  return { name: (match[1] ?? '').toLowerCase(), args: (match[2] ?? '').trim() };
}
