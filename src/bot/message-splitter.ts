/**
 * Splits long text into Discord-sized messages (2000 characters) at the best boundary available: between
 * paragraphs, then between lines, then between words. A code fence cut in two is closed at the end of one
 * chunk and reopened, with its language, at the start of the next, so both render as code.
 */

/** Discord's limit on message content. */
export const DISCORD_MESSAGE_LIMIT = 2000;

interface Fence {
  marker: string;
  opening: string;
}

interface Line {
  text: string;
  /** The fence open before this line (null outside code). */
  fenceBefore: Fence | null;
}

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** Splits `text` into chunks of at most `limit` characters; text that fits comes back as one chunk. */
export function splitMessage(text: string, limit: number = DISCORD_MESSAGE_LIMIT): string[] {
  if (limit < 40) throw new RangeError('splitMessage needs a limit of at least 40 characters');
  // trimEnd rather than /\s+$/, which tries each space of a run to its end: 100,000 spaces took 15 s.
  const trimmed = text.trimEnd();
  if (trimmed.length <= limit) return trimmed.trim() === '' ? [] : [trimmed];
  const lines = annotateFences(trimmed.split('\n'));
  const chunks: string[] = [];
  let start = skipBlankLines(lines, 0);
  while (start < lines.length) {
    const { chunk, next } = takeChunk(lines, start, limit);
    if (chunk.trim() !== '') chunks.push(chunk);
    start = skipBlankLines(lines, next);
  }
  return chunks;
}

/** Marks each line with the code fence open before it. */
function annotateFences(texts: string[]): Line[] {
  let open: Fence | null = null;
  return texts.map((text) => {
    const line: Line = { text, fenceBefore: open };
    const match = FENCE_LINE.exec(text);
    if (match) {
      const marker = match[1] ?? '```';
      const rest = (match[2] ?? '').trim();
      if (open === null) {
        if (!(marker.startsWith('`') && rest.includes('`'))) open = { marker, opening: `${marker}${rest}` };
      } else if (rest === '' && marker[0] === open.marker[0] && marker.length >= open.marker.length) {
        open = null;
      }
    }
    return line;
  });
}

/** Takes one chunk starting at line `start`; returns it and the index of the first line not taken. */
function takeChunk(lines: Line[], start: number, limit: number): { chunk: string; next: number } {
  const first = lines[start] as Line;
  const prefix = first.fenceBefore ? `${first.fenceBefore.opening}\n` : '';
  let length = prefix.length;
  let lastFit = -1;
  for (let index = start; index < lines.length; index += 1) {
    length += (index === start ? 0 : 1) + (lines[index] as Line).text.length;
    const after = lines[index + 1];
    const suffixLength = after?.fenceBefore ? after.fenceBefore.marker.length + 1 : 0;
    if (length + suffixLength > limit) break;
    lastFit = index;
  }
  if (lastFit < start) return splitLongLine(lines, start, prefix, limit);
  const chosen = chooseCut(lines, start, prefix, lastFit, limit);
  return { chunk: render(lines, start, chosen, prefix), next: chosen + 1 };
}

/** The last cut of the best quality that still leaves the chunk at least half full. */
function chooseCut(lines: Line[], start: number, prefix: string, lastFit: number, limit: number): number {
  let chosen = lastFit;
  let chosenQuality = -1;
  let length = prefix.length;
  for (let index = start; index <= lastFit; index += 1) {
    const line = lines[index] as Line;
    length += (index === start ? 0 : 1) + line.text.length;
    const after = lines[index + 1];
    const quality = after === undefined ? 4 : cutQuality(line, after);
    const halfFull = length >= limit / 2;
    if ((halfFull || index === lastFit) && quality >= chosenQuality) {
      chosen = index;
      chosenQuality = quality;
    }
  }
  return chosen;
}

/** How good a cut between `line` and `after` is: paragraph or code-block boundary 3, line 2, inside code 1. */
function cutQuality(line: Line, after: Line): number {
  const inCode = after.fenceBefore !== null;
  // Never right after an opening fence: that would leave an empty code block behind.
  if (inCode && line.fenceBefore === null) return 0;
  if (!inCode && (line.text.trim() === '' || after.text.trim() === '')) return 3;
  if (!inCode && (line.fenceBefore !== null || FENCE_LINE.test(after.text))) return 3;
  return inCode ? 1 : 2;
}

/** Renders lines `start..end` with the reopened fence before and a closing fence after when cut inside code. */
function render(lines: Line[], start: number, end: number, prefix: string): string {
  const body = lines
    .slice(start, end + 1)
    .map((line) => line.text)
    .join('\n');
  const after = lines[end + 1];
  if (after?.fenceBefore) return `${prefix}${body}\n${after.fenceBefore.marker}`;
  return `${prefix}${body}`.trimEnd();
}

/**
 * A single line longer than a chunk: cut it at the last space that keeps the piece at least half full. A fence too
 * long to reopen and close around a piece (a runaway info string or marker) is left off it, so every call moves on.
 */
function splitLongLine(lines: Line[], start: number, fencePrefix: string, limit: number): { chunk: string; next: number } {
  const line = lines[start] as Line;
  const fenceSuffix = line.fenceBefore ? `\n${line.fenceBefore.marker}` : '';
  const framed = limit - fencePrefix.length - fenceSuffix.length >= limit / 2;
  const [prefix, suffix] = framed ? [fencePrefix, fenceSuffix] : ['', ''];
  const room = limit - prefix.length - suffix.length;
  if (line.text.length <= room) return { chunk: `${prefix}${line.text}${suffix}`, next: start + 1 };
  const window = line.text.slice(0, room);
  const space = window.lastIndexOf(' ');
  let cut = space >= room / 2 ? space : room;
  // Never between the halves of an emoji (a surrogate pair): each half would show as a replacement character.
  if (isHighSurrogate(line.text.charCodeAt(cut - 1))) cut -= 1;
  const head = line.text.slice(0, cut).trimEnd();
  const tail = line.text.slice(cut).replace(/^ +/, '');
  lines[start] = { text: tail, fenceBefore: line.fenceBefore };
  return { chunk: `${prefix}${head}${suffix}`, next: start };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function skipBlankLines(lines: Line[], from: number): number {
  let index = from;
  while (index < lines.length && (lines[index] as Line).fenceBefore === null && (lines[index] as Line).text.trim() === '') index += 1;
  return index;
}
