import { runInNewContext } from 'node:vm';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import { describe, expect, it } from 'vitest';
import { asciiSource } from '../../scripts/ascii-source.mjs';
import { shiftedMappings } from '../../scripts/bundle.mjs';

/** What a script returns, run as written. */
const evaluate = (source: string): unknown => runInNewContext(source);

describe('asciiSource', () => {
  it('leaves ASCII text as it is', () => {
    const source = 'const a = /x/;\n// a comment\n';
    expect(asciiSource(source).text).toBe(source);
  });

  it.each([
    ['a regular expression', String.raw`/[’—]+/.exec("it’s — fine")[0]`],
    ['one with the u flag and a character beyond the BMP', String.raw`/👋+/u.exec("hi 👋👋")[0]`],
    ['an identity escape in a regular expression', String.raw`/\’s/.test("it’s")`],
    ['a backslash before it that is itself escaped', String.raw`/\\’/.test("\\’")`],
    ['a string', `"café — ok"`],
    ['a template', '`naïve ${1 + 1} → two`'],
  ])('means the same in %s, in ASCII', (_what, source) => {
    const { text } = asciiSource(source);
    expect(text).not.toMatch(/[\u0080-\uffff]/);
    expect(evaluate(text)).toEqual(evaluate(source));
  });

  it('escapes a comment as text, and keeps the line terminators that end a // comment', () => {
    const source = '// it’s a comment\u2028"code after the comment"';
    const { text } = asciiSource(source);
    expect(text).toBe('// it\\u2019s a comment\u2028"code after the comment"');
    expect(evaluate(text)).toBe('code after the comment');
  });

  it('tells where a column of the original text lands in the escaped one', () => {
    const { text, column } = asciiSource('ok\nconst a = /’/; const b = /\\’/; call();\nnext');
    const lines = text.split('\n');
    expect(lines[1]?.slice(column(1, 'const a = /’/; const b = /\\’/; '.length))).toBe('call();');
    expect(lines[1]?.slice(column(1, 'const a = /’/; '.length))).toBe('const b = /\\u2019/; call();');
    expect(column(0, 2)).toBe(2);
    expect(column(2, 1)).toBe(1);
  });
});

describe('shiftedMappings', () => {
  it("moves each segment's generated column and keeps where it points", () => {
    const mappings = encode([[[0, 0, 3, 0]], [[0], [7, 0, 4, 2]]]);
    expect(decode(shiftedMappings(mappings, (line, column) => (line === 1 && column > 0 ? column + 5 : column)))).toEqual([
      [[0, 0, 3, 0]],
      [[0], [12, 0, 4, 2]],
    ]);
  });
});
