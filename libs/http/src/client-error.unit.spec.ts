import { Duplex } from 'node:stream';
import pino from 'pino';
import { answerClientError, ClientError, clientErrorRefusal } from './client-error';

const parseError = (code: string, reason?: string): ClientError =>
  Object.assign(new Error(`Parse Error: ${reason ?? code}`), { code, reason });

/** A socket that records what is written to it. */
function recordingSocket(): { socket: Duplex; written: () => string } {
  const chunks: Buffer[] = [];
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  });
  socket.on('error', () => undefined);
  return { socket, written: () => Buffer.concat(chunks).toString('utf8') };
}

describe('answering what the HTTP parser refused', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431, 'headers_too_large'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'request_timeout'],
    ['HPE_INVALID_EOF_STATE', 400, 'invalid_request'],
    ['HPE_INVALID_HEADER_TOKEN', 400, 'invalid_request'],
  ])('answers %s with %i %s', (code, status, apiCode) => {
    expect(clientErrorRefusal(parseError(code))).toMatchObject({ status, code: apiCode });
  });

  it("echoes llhttp's fixed reason, and nothing that is not plain short text", () => {
    expect(clientErrorRefusal(parseError('HPE_INVALID_METHOD', 'Invalid method encountered')).message).toBe(
      'the request is not valid HTTP/1.1: Invalid method encountered',
    );
    expect(clientErrorRefusal(parseError('HPE_X', 'a\r\nSet-Cookie: x')).message).toBe(
      'the request is not valid HTTP/1.1',
    );
  });

  it('writes one whole HTTP/1.1 answer with the documented body, a Request-Id and Connection: close, then closes', () => {
    const { socket, written } = recordingSocket();
    answerClientError(pino({ level: 'silent' }))(parseError('HPE_HEADER_OVERFLOW'), socket);
    const [head = '', body = ''] = written().split('\r\n\r\n');
    const lines = head.split('\r\n');
    expect(lines[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        expect.stringMatching(/^Request-Id: req_[0-9a-f-]{36}$/),
      ]),
    );
    expect(JSON.parse(body)).toEqual({ error: { code: 'headers_too_large', message: expect.any(String) } });
    expect(socket.destroyed).toBe(true);
  });

  it('writes nothing on a connection the client already reset', () => {
    const { socket, written } = recordingSocket();
    answerClientError(pino({ level: 'silent' }))(parseError('ECONNRESET'), socket);
    expect(written()).toBe('');
  });
});
