/** Characters that matter to an array literal or to JSON: quotes, backslashes, braces, control characters, non-BMP text, a lone surrogate. */
const ALPHABET = [
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
  '\u0001',
  '\u2028',
  'NULL',
  'null',
  '',
];

/** `count` strings of up to 11 pieces of ALPHABET from a small seeded generator: the same on every run. */
export function seededStrings(seed: number, count: number): string[] {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: next() % 12 }, () => ALPHABET[next() % ALPHABET.length]).join(''),
  );
}

/** Whether `s` holds a control character (below U+0020), which JSON escapes and an array literal does not. */
export function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i += 1) if (s.charCodeAt(i) < 0x20) return true;
  return false;
}
