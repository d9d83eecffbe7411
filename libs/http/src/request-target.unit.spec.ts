import { requestTargetRefusal } from './request-target';

const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';

describe('requestTargetRefusal', () => {
  it('refuses every unreserved character percent-encoded, in upper- and lower-case hex', () => {
    for (const character of UNRESERVED) {
      const hex = character.charCodeAt(0).toString(16);
      for (const encoded of [`%${hex.toUpperCase()}`, `%${hex.toLowerCase()}`]) {
        expect({ encoded, body: requestTargetRefusal(`/sandbox/a${encoded}b`)?.toBody() }).toEqual({
          encoded,
          body: {
            error: {
              code: 'invalid_request',
              message: `the request target is not valid: the path percent-encodes ${encoded}, a character that is sent as itself`,
            },
          },
        });
      }
    }
  });

  it('lets through what is percent-encoded because it has to be, and a "%" that is itself encoded', () => {
    // The neighbours of the unreserved ranges, reserved characters, non-ASCII UTF-8, and %25 ("%"),
    // which the router decodes only inside a parameter, once: "/%2573andbox" stays that path.
    for (const target of [
      '/api/payout/po_%C3%A9',
      '/api/payout/a%20b',
      '/api/payout/a%2Fb',
      '/api/payout/a%40%5B%60%7B%2F%3A%2c',
      '/%2573andbox/payments',
    ]) {
      expect({ target, refusal: requestTargetRefusal(target) }).toEqual({ target, refusal: undefined });
    }
  });

  it('refuses "." and ".." segments anywhere in the path, and a fragment anywhere in the target', () => {
    for (const target of ['/.', '/..', '/a/./b', '/a/../b', '/a/b/..', 'http://127.0.0.1/a/../b']) {
      expect(requestTargetRefusal(target)?.message).toBe(
        'the request target is not valid: the path has a "." or ".." segment; send the path without it',
      );
    }
    for (const target of ['/a#b', '/a?b=c#d', '/#']) {
      expect(requestTargetRefusal(target)?.message).toBe(
        'the request target is not valid: it has a fragment (#), which a request never sends',
      );
    }
  });

  it('reads dots inside a segment, and the query, as they are', () => {
    for (const target of [
      '/',
      '/claim/po_1.secret',
      '/a/.../b',
      '/a/.b/c.',
      '/payments?limit=%31&x=../..',
      '/payments?merchant_reference=%61%2e',
      'http://127.0.0.1/sandbox/payments',
      '*',
    ]) {
      expect({ target, refusal: requestTargetRefusal(target) }).toEqual({ target, refusal: undefined });
    }
  });
});
