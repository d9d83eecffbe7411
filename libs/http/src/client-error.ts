import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { requestIdFrom } from '@payouts/observability';
import type { Logger } from 'pino';
import { ApiError } from './api-error';

/** What Node's HTTP parser reports with a request it cannot read (its `clientError` event). */
export interface ClientError extends Error {
  code?: string;
  /** llhttp's fixed wording of the problem, e.g. "Invalid header value char". */
  reason?: unknown;
}

/**
 * The refusal of a request Node's HTTP parser could not read, before Fastify or Nest saw it: a
 * control character in a header, a malformed request line, headers too large, a body cut short.
 */
export function clientErrorRefusal(error: ClientError): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(
        431,
        'headers_too_large',
        `the request headers are larger than ${Math.floor(maxHeaderSize / 1024)} KiB`,
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'request_timeout', 'the request was not received in time');
    case 'HPE_INVALID_EOF_STATE':
      return new ApiError(
        400,
        'invalid_request',
        'the connection ended before the request was complete (is the body shorter than its Content-Length?)',
      );
    default: {
      // llhttp's reasons are fixed English texts, never request bytes; anything else is not echoed.
      const reason =
        typeof error.reason === 'string' && /^[\x20-\x7e]{1,100}$/.test(error.reason)
          ? `: ${error.reason}`
          : '';
      return new ApiError(400, 'invalid_request', `the request is not valid HTTP/1.1${reason}`);
    }
  }
}

/** A whole HTTP/1.1 answer with the documented error body, for a connection that is then closed. */
export function rawErrorResponse(error: ApiError, requestId: string): string {
  const body = JSON.stringify(error.toBody());
  return (
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n' +
    `Request-Id: ${requestId}\r\n\r\n${body}`
  );
}

/**
 * Fastify's `clientErrorHandler`: answers what Node's HTTP parser refused in the documented error
 * body with a fresh Request-Id (Fastify's own answer has neither), logs that id so a merchant's
 * report can be traced, and closes the connection, whose remaining bytes cannot be trusted.
 */
export function answerClientError(log: Logger): (error: ClientError, socket: Duplex) => void {
  return (error, socket) => {
    // A reset connection is already gone: nothing to answer (Fastify's own handler does the same).
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const refusal = clientErrorRefusal(error);
    const requestId = requestIdFrom(undefined);
    log.info(
      { requestId, code: error.code, status: refusal.status },
      'refused a request the HTTP parser could not read',
    );
    if (socket.writable) socket.write(rawErrorResponse(refusal, requestId));
    socket.destroy(error);
  };
}
