/**
 * Folds text into the plain ASCII shape credentials are written in, so a key cannot slip past the detector by a
 * zero-width space, a fullwidth letter, a combining mark or a Cyrillic look-alike. The folded text is only ever
 * scanned, never shown; `origin` maps each folded character back to the original, so redaction can act on the
 * original text.
 */

/** Look-alikes that NFKD leaves alone: Cyrillic and Greek letters, and dashes, mapped to the ASCII they imitate. */
const HOMOGLYPHS: Readonly<Record<string, string>> = {
  // Cyrillic
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  У: 'Y',
  Ѕ: 'S',
  І: 'I',
  Ј: 'J',
  а: 'a',
  в: 'b',
  е: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  х: 'x',
  у: 'y',
  ѕ: 's',
  і: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ӏ: 'l',
  // Greek
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  ο: 'o',
  ν: 'v',
  ι: 'i',
  κ: 'k',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  α: 'a',
  // Dashes and minus signs that NFKD keeps
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u2043': '-',
  '\uFE63': '-',
};

/** Characters that are invisible or only steer rendering: format characters (zero-width, bidi), marks, variation selectors. */
const INVISIBLE = /[\p{Cf}\p{M}\u115F\u1160\u3164\uFFA0]/u;

/** The folded text and, for each of its UTF-16 units, the index of the original character it came from. */
export interface FoldedText {
  text: string;
  origin: number[];
}

/**
 * Folds `text` code point by code point: NFKD (fullwidth, ligatures, accents apart), drop invisible characters and
 * marks, then map look-alikes. Per code point rather than per string so every folded unit has one origin.
 */
export function foldForScan(text: string): FoldedText {
  let folded = '';
  const origin: number[] = [];
  let index = 0;
  for (const char of text) {
    for (const part of char.normalize('NFKD')) {
      if (INVISIBLE.test(part)) continue;
      const mapped = HOMOGLYPHS[part] ?? part;
      folded += mapped;
      for (let unit = 0; unit < mapped.length; unit += 1) origin.push(index);
    }
    index += char.length;
  }
  return { text: folded, origin };
}

/** True when `text` shows something: not only whitespace, zero-width or format characters, marks and fillers. */
export function hasVisibleText(text: string): boolean {
  return foldForScan(text).text.replace(/\s/gu, '') !== '';
}
