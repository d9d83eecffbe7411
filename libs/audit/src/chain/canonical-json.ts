/**
 * JSON with every object's keys sorted (by UTF-16 code units, JavaScript's default sort) and no
 * whitespace. The chain hashes this text, so it must not depend on the order a writer gave the
 * keys nor on jsonb's storage order: the same value read back from jsonb always gives the same
 * text, on PGlite and on a server (both hand back JSON.parse of jsonb's output).
 *
 * verify writes it for every event of the log, so the common case is a copy of the value with its
 * keys inserted in sorted order, written by the native JSON.stringify (about twice as fast as
 * writing the text piece by piece). JSON.stringify writes keys in insertion order except array
 * indices ("0", "17"), which it writes first in numeric order, and `__proto__` cannot be inserted
 * as a plain key: a value with either is written piece by piece instead, with the same result.
 */
export function canonicalJson(value: unknown): string {
  let copy: unknown;
  try {
    copy = sortedCopy(value);
  } catch (error) {
    if (error !== NOT_IN_PLACE) throw error;
    return writtenPieceByPiece(value);
  }
  return JSON.stringify(copy);
}

/** Thrown by sortedCopy (never seen outside): a key JSON.stringify would not keep in place. */
const NOT_IN_PLACE = Symbol('key not kept in place');

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

function sortedCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return checkedPrimitive(value);
  if (Array.isArray(value)) return value.map(sortedCopy);
  const record = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) {
    const field = record[key];
    if (field === undefined) continue;
    if (key === '__proto__' || (ARRAY_INDEX.test(key) && Number(key) < 2 ** 32 - 1)) throw NOT_IN_PLACE;
    copy[key] = sortedCopy(field);
  }
  return copy;
}

/** undefined, functions and symbols have no JSON form; jsonb never gives them back. */
function checkedPrimitive(value: unknown): unknown {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') {
    throw new TypeError(`no JSON form for a ${typeof value}`);
  }
  return value;
}

function writtenPieceByPiece(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(checkedPrimitive(value));
  if (Array.isArray(value)) return `[${value.map(writtenPieceByPiece).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${writtenPieceByPiece(record[key])}`).join(',')}}`;
}
