import { createRequire } from 'node:module';
import { textArrayLiteral } from './text-array-literal';
import { hasControlCharacter, seededStrings } from './testing/seeded-strings';

// pg's own writer of parameter values (its module has no type declarations).
const { prepareValue } = createRequire(__filename)('pg/lib/utils') as {
  prepareValue: (value: unknown) => unknown;
};

describe('textArrayLiteral', () => {
  it('writes what pg writes for arrays of strings', () => {
    const strings = seededStrings(7, 5_000);
    // Without control characters, the whole array is written as JSON; with them, element by element.
    const plain = strings.filter((s) => !hasControlCharacter(s));
    const arrays = [strings, plain, ...strings.map((s) => [s]), [], [''], ['"'], ['\\'], ['NULL'], ['\\n']];
    for (const array of arrays) expect(textArrayLiteral(array)).toBe(prepareValue(array));
    expect(plain.length).toBeGreaterThan(1_000);
  });

  it('writes a null as an unquoted NULL (PostgreSQL reads it in any case): text-array-literal.pg.int.spec.ts reads them back', () => {
    expect(textArrayLiteral([null, 'a', undefined])).toBe('{null,"a",null}');
    expect(textArrayLiteral([null, 'a\n', undefined])).toBe('{NULL,"a\n",NULL}');
    expect(textArrayLiteral(['null', 'NULL'])).toBe('{"null","NULL"}');
  });

  it('writes control characters, a lone surrogate and U+2028 as pg does', () => {
    for (const array of [['a', '\t'], ['\u0001'], ['\ud800'], ['\\', '\n', '"'], ['\u2028']]) {
      expect(textArrayLiteral(array)).toBe(prepareValue(array));
    }
  });

  it('leaves any other array to pg (numbers, nested arrays, buffers, dates)', () => {
    for (const array of [[1, 2], [['a']], [Buffer.from('a')], [new Date(0)], ['a', 1], [true]]) {
      expect(textArrayLiteral(array)).toBeNull();
    }
  });
});
