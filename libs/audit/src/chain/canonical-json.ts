/**
 * JSON with every object's keys sorted (by UTF-16 code units, JavaScript's default sort) and no
 * whitespace. The chain hashes this text, so it must not depend on the order a writer gave the
 * keys nor on jsonb's storage order: the same value read back from jsonb always gives the same
 * text, on PGlite and on a server (both hand back JSON.parse of jsonb's output).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    // undefined, functions and symbols have no JSON form; jsonb never gives them back.
    if (text === undefined) throw new TypeError(`no JSON form for a ${typeof value}`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}
