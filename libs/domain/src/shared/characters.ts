/**
 * Text limits (spec 8) count characters, meaning Unicode code points, not UTF-16 units: an emoji is
 * one character. Every place that checks such a limit uses this, so a value that Create accepts is
 * also accepted where it is used again (a redirect session's customer_id, a List filter).
 */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count += 1; // string iteration walks code points
  return count;
}
