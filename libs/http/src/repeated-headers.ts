import { ApiError } from './api-error';

/**
 * Headers the API reads as one value, by lower-case name, with the spelling used in answers. Node
 * joins some repeats ("k1, k2" for Idempotency-Key) and keeps the first of others (Authorization,
 * Content-Type, Host), so a repeat would be read as something the caller did not send. Cookie is
 * not here: a proxy may legitimately split it, and Node joins it as one list with "; ".
 */
const READ_ONCE: ReadonlyMap<string, { name: string; bit: number }> = new Map(
  [
    'Authorization',
    'Idempotency-Key',
    'Content-Type',
    'Content-Length',
    'Host',
    'Request-Id',
    'X-Request-Id',
  ].map((name, index) => [name.toLowerCase(), { name, bit: 1 << index }]),
);

/**
 * The first header of READ_ONCE that `rawHeaders` (Node's [name, value, name, value, ...], as
 * received) carries more than once, or undefined. One pass, no allocation but the lower-cased names.
 */
export function repeatedHeader(rawHeaders: readonly string[]): string | undefined {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const header = READ_ONCE.get(rawHeaders[i]!.toLowerCase());
    if (header === undefined) continue;
    if ((seen & header.bit) !== 0) return header.name;
    seen |= header.bit;
  }
  return undefined;
}

/** The refusal of a request that repeats a header the API reads once, or undefined. */
export function repeatedHeaderRefusal(rawHeaders: readonly string[]): ApiError | undefined {
  const name = repeatedHeader(rawHeaders);
  if (name === undefined) return undefined;
  return new ApiError(
    400,
    'invalid_request',
    `the ${name} header is sent more than once; send it once`,
    name,
  );
}
