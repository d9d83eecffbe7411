/**
 * Text limits (docs/design.md#limits) count characters, meaning Unicode code points, not UTF-16
 * units: an emoji is one character. Every place that checks such a limit uses this, so a value that
 * Create accepts is also accepted where it is used again (a redirect session's customer_id, a List
 * filter).
 */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count += 1; // string iteration walks code points
  return count;
}

/** NUL, or half of a surrogate pair without its other half: neither can be stored as UTF-8 text. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * True when the text holds a character the database cannot store (PostgreSQL refuses NUL in text
 * and both in jsonb). Such input is refused as invalid where it arrives, so it never reaches a
 * write whose failure would look like an unknown outcome.
 */
export function hasUnstorableCharacter(value: string): boolean {
  return UNSTORABLE.test(value);
}

/** How a refusal of such text ends, after the name of the field that holds it. */
export const UNSTORABLE_TEXT = 'contains a NUL character or an unpaired surrogate, which cannot be stored';
