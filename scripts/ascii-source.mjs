// @ts-check
/**
 * The bundle's chunks as ASCII text. V8 holds the source of every loaded script for as long as it runs (to compile
 * its functions lazily), one byte a character while the text is Latin-1 and two bytes for the whole script as soon as
 * one character is not: an em dash in a bundled package's comment or a `’` in one of our regular expressions (esbuild
 * escapes strings and identifiers, but leaves comments and regular expressions as written) doubled the chunks' 6 MB of
 * source to 12 MB of live heap. Each such UTF-16 unit becomes a `\uXXXX` escape, which means the same character in a
 * regular expression, a string or a template, and is plain text in a comment. U+2028 and U+2029 stay: they end a
 * `//` comment, and escaped they would not.
 */

/** A character to escape: not ASCII, and not one of the two line terminators above. */
const TO_ESCAPE = /[\u0080-\u2027\u202a-\uffff]/;

/**
 * One line with its escapes. A backslash before the character (an identity escape such as `\’` in a regular
 * expression) would escape the escape's own backslash, so it goes: `\’` and `\u2019` mean the same.
 * @param {string} line
 * @returns {{ text: string, shifts: Array<[number, number]> }} the line, and for each escape the column it replaced and how many columns it added
 */
function escapeLine(line) {
  let text = '';
  /** @type {Array<[number, number]>} */
  const shifts = [];
  for (let column = 0; column < line.length; column += 1) {
    const character = line.charAt(column);
    if (!TO_ESCAPE.test(character)) {
      text += character;
      continue;
    }
    const backslashes = /\\*$/.exec(text)?.[0].length ?? 0;
    const escapedByBackslash = backslashes % 2 === 1;
    if (escapedByBackslash) text = text.slice(0, -1);
    text += `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
    shifts.push([column, escapedByBackslash ? 4 : 5]);
  }
  return { text, shifts };
}

/**
 * `source` with every character outside ASCII escaped, and the generated column a position of the original text has
 * in the escaped one (for the source map's mappings).
 * @param {string} source
 * @returns {{ text: string, column: (line: number, column: number) => number }}
 */
export function asciiSource(source) {
  /** @type {Map<number, Array<[number, number]>>} */
  const shiftsByLine = new Map();
  const lines = source.split('\n').map((line, index) => {
    if (!TO_ESCAPE.test(line)) return line;
    const escaped = escapeLine(line);
    shiftsByLine.set(index, escaped.shifts);
    return escaped.text;
  });
  return {
    text: lines.join('\n'),
    column(line, column) {
      let shifted = column;
      for (const [at, added] of shiftsByLine.get(line) ?? []) if (at < column) shifted += added;
      return shifted;
    },
  };
}
