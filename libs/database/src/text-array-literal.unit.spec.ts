import { createRequire } from 'node:module';
import { textArrayLiteral } from './text-array-literal';

// pg's own writer of parameter values (its module has no type declarations).
const { prepareValue } = createRequire(__filename)('pg/lib/utils') as {
  prepareValue: (value: unknown) => unknown;
};

/** A small seeded generator: the same strings on every run. */
function strings(seed: number, count: number): string[] {
  const alphabet = [
    'a',
    'Z',
    '0',
    ' ',
    ',',
    '{',
    '}',
    '"',
    '\\',
    "'",
    'é',
    '€',
    '😀',
    '\n',
    '\t',
    'NULL',
    '',
  ];
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: next() % 12 }, () => alphabet[next() % alphabet.length]).join(''),
  );
}

describe('textArrayLiteral', () => {
  it('writes what pg writes for arrays of strings and nulls', () => {
    const values = strings(7, 5_000);
    const withNulls = values.map((value, i) => (i % 7 === 0 ? null : value));
    for (const array of [values, withNulls, [], [null], [''], ['"'], ['\\'], ['NULL'], [undefined]]) {
      expect(textArrayLiteral(array)).toBe(prepareValue(array));
    }
  });

  it('leaves any other array to pg (numbers, nested arrays, buffers, dates)', () => {
    for (const array of [[1, 2], [['a']], [Buffer.from('a')], [new Date(0)], ['a', 1]]) {
      expect(textArrayLiteral(array)).toBeNull();
    }
  });
});
