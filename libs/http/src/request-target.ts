import { ApiError } from './api-error';

/**
 * A percent-encoded unreserved character (RFC 3986 2.3: ALPHA, DIGIT, "-", ".", "_", "~"), in
 * either case of hex. Encoding one changes nothing for the router, which decodes it, but a reader
 * of the raw target (a proxy's rule, a log search) would see another path.
 */
const ENCODED_UNRESERVED = /%(?:4[1-9A-Fa-f]|5[0-9Aa]|6[1-9A-Fa-f]|7[0-9Aa]|3[0-9]|2[DdEe]|5[Ff]|7[Ee])/;

/**
 * The refusal of a request target whose path could be read in more than one way, or undefined:
 * so that the path the router matches is the only reading of it (docs/sandbox.md). Refused are a
 * path that percent-encodes an unreserved character (`/%73andbox` routes as `/sandbox`), a "." or
 * ".." segment (a client or proxy would resolve it away, the router does not), and a fragment (the
 * router stops at "#", the raw target does not; a request never sends one). The query is not read
 * here: its values are decoded once, as the handlers read them.
 */
export function requestTargetRefusal(url: string): ApiError | undefined {
  if (url.includes('#')) return invalidTarget('it has a fragment (#), which a request never sends');
  const query = url.indexOf('?');
  // An absolute-form target (`http://host/path`) is checked whole: a valid scheme and host trip no rule.
  const path = query === -1 ? url : url.slice(0, query);
  const encoded = ENCODED_UNRESERVED.exec(path);
  if (encoded) {
    return invalidTarget(`the path percent-encodes ${encoded[0]}, a character that is sent as itself`);
  }
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) {
    return invalidTarget('the path has a "." or ".." segment; send the path without it');
  }
  return undefined;
}

function invalidTarget(why: string): ApiError {
  return new ApiError(400, 'invalid_request', `the request target is not valid: ${why}`);
}
