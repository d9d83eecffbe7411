const NEEDS_ESCAPE = /[\\"]/;
const ESCAPED = /[\\"]/g;
/** A JSON escape other than `\"` and `\\`: a control character or a lone surrogate. */
const JSON_ONLY_ESCAPE = /\\[^"\\]/;

/**
 * A parameter array of strings and nulls as a PostgreSQL array literal (`{"a","b \"c\"",NULL}`),
 * or null for an array holding anything else, which pg then writes as it does. The set-based
 * statements pass many such arrays a batch (a replay of 1M events about 2 million elements), and
 * pg's writer runs two regular-expression replaces and its whole value-conversion chain on every
 * element.
 *
 * Most arrays are written by JSON.stringify, one native pass and one string: a JSON array of
 * strings and nulls is the array literal between its brackets, because JSON escapes a quote and a
 * backslash exactly as an array literal does and PostgreSQL reads an unquoted `null` as NULL
 * (case-insensitively). JSON's other escapes (`\n`, `\u0001`, a lone surrogate's `\ud800`) mean
 * something else in an array literal, so an array whose JSON holds one is written element by
 * element instead, each string copied as it is unless it holds a quote or a backslash. Building
 * the literal by concatenation allocated about a fifth of a 1M-event replay's memory
 * (docs/performance.md). Tests read both kinds back through the server.
 */
export function textArrayLiteral(values: readonly unknown[]): string | null {
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (typeof value !== 'string' && value !== null && value !== undefined) return null;
  }
  const json = JSON.stringify(values);
  if (!JSON_ONLY_ESCAPE.test(json)) return `{${json.slice(1, -1)}}`;
  return elementByElement(values);
}

function elementByElement(values: readonly unknown[]): string {
  let literal = '{';
  for (let i = 0; i < values.length; i += 1) {
    if (i > 0) literal += ',';
    const value = values[i] as string | null | undefined;
    if (value === null || value === undefined) literal += 'NULL';
    else literal += NEEDS_ESCAPE.test(value) ? `"${value.replace(ESCAPED, '\\$&')}"` : `"${value}"`;
  }
  return `${literal}}`;
}
