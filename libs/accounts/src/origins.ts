/**
 * Origins for `return_url` matching: scheme, host and port compared exactly, after the WHATWG
 * URL parser has lowercased the scheme and host (and turned international names into punycode)
 * and dropped the default port (80 for http, 443 for https). Paths, queries and fragments are
 * not part of an origin and are ignored.
 *
 * Stricter than the URL parser on purpose: only `http://` and `https://` written out in full
 * (the parser would also accept `https:example.com` or `https:\\example.com`), a host right after
 * the slashes, no user name or password (`https://merchant.example@evil.example` names
 * evil.example), no whitespace or control characters.
 */
const SCHEME_AND_HOST_START = /^https?:\/\/[^/\\?#@\s]/i;
const WHITESPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f]/; // eslint-disable-line no-control-regex

/** The normalised origin (`scheme://host[:port]`) of an origin or URL; null if not http(s) or has no host. */
export function normaliseOrigin(url: string): string | null {
  if (typeof url !== 'string' || url.length > 2048) return null;
  if (WHITESPACE_OR_CONTROL.test(url) || !SCHEME_AND_HOST_START.test(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (parsed.hostname === '' || parsed.username !== '' || parsed.password !== '') return null;
  return parsed.origin;
}

/** The normalised origin of a full URL (a `return_url`), to compare with the registered origins. */
export function originOf(url: string): string | null {
  return normaliseOrigin(url);
}
