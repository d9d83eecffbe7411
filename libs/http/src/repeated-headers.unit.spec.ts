import { repeatedHeader, repeatedHeaderRefusal } from './repeated-headers';

const raw = (...names: string[]) => names.flatMap((name) => [name, 'value']);

describe('repeatedHeader', () => {
  it.each([
    ['Idempotency-Key', raw('Host', 'Idempotency-Key', 'Content-Type', 'idempotency-key')],
    ['Authorization', raw('Authorization', 'AUTHORIZATION')],
    ['Content-Type', raw('content-type', 'Content-Type')],
    ['Content-Length', raw('Content-Length', 'Content-Length')],
    ['Host', raw('Host', 'host')],
    ['Request-Id', raw('Request-Id', 'request-id')],
    ['X-Request-Id', raw('x-request-id', 'X-Request-ID')],
  ])('finds a repeated %s in any spelling', (name, rawHeaders) => {
    expect(repeatedHeader(rawHeaders)).toBe(name);
  });

  it('lets headers the API does not read once repeat, and each read-once header appear once', () => {
    const rawHeaders = raw(
      'Host',
      'Authorization',
      'Idempotency-Key',
      'Content-Type',
      'Content-Length',
      'Request-Id',
      'X-Request-Id',
      'Accept',
      'Accept',
      'Cookie',
      'Cookie',
      'X-Forwarded-For',
      'X-Forwarded-For',
    );
    expect(repeatedHeader(rawHeaders)).toBeUndefined();
    expect(repeatedHeader([])).toBeUndefined();
  });

  it('refuses with 400 invalid_request naming the header', () => {
    expect(repeatedHeaderRefusal(raw('Idempotency-Key', 'Idempotency-Key'))?.toBody()).toEqual({
      error: {
        code: 'invalid_request',
        message: 'the Idempotency-Key header is sent more than once; send it once',
        param: 'Idempotency-Key',
      },
    });
    expect(repeatedHeaderRefusal(raw('Idempotency-Key'))).toBeUndefined();
  });
});
