import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { isDatabaseUnavailable } from '@payouts/database';
import { DomainError } from '@payouts/domain';
import { StreamVersionConflictError } from '@payouts/event-store';
import type { FastifyReply } from 'fastify';
import { ApiError } from './api-error';
import { DOMAIN_ERROR_STATUS } from './domain-error-statuses';
import { OverloadedError } from './overloaded-error';

/** Fastify's own errors (body parsing, limits) that reach us, by their code. */
const FASTIFY_ERRORS: Record<string, (message: string) => ApiError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new ApiError(
      415,
      'unsupported_media_type',
      'request bodies must be JSON (Content-Type: application/json)',
    ),
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new ApiError(413, 'payload_too_large', 'request body is larger than 64 KiB'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    new ApiError(400, 'invalid_request', 'Content-Type is application/json but the body is empty'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new ApiError(400, 'invalid_request', 'Content-Length does not match the body'),
};

const logger = new Logger('ApiErrors');

/** Turns every failure into the documented error body; nothing else ever leaves the API. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    sendApiError(host.switchToHttp().getResponse<FastifyReply>(), exception);
  }
}

export function sendApiError(reply: FastifyReply, exception: unknown): void {
  const error = toApiError(exception);
  for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
  void reply.status(error.status).send(error.toBody());
}

/** The documented error for anything thrown while handling a request. */
export function toApiError(exception: unknown): ApiError {
  if (exception instanceof ApiError) return exception;
  if (exception instanceof DomainError) {
    const mapped = DOMAIN_ERROR_STATUS[exception.code];
    return new ApiError(mapped.status, mapped.code ?? exception.code, exception.message, exception.param);
  }
  if (exception instanceof StreamVersionConflictError) {
    // Conflicts are retried with backoff first; reaching here means sustained contention.
    return new ApiError(
      409,
      'concurrent_update',
      'the resource changed concurrently; retry the request',
      undefined,
      {
        'Retry-After': '1',
      },
    );
  }
  if (exception instanceof OverloadedError) {
    // Refused before any of it started: the same request (and Idempotency-Key) may come again.
    return new ApiError(503, 'overloaded', exception.message, undefined, {
      'Retry-After': String(exception.retryAfterSeconds),
    });
  }
  if (isDatabaseUnavailable(exception)) {
    // The statement was lost with its connection (a failover, a restart): nothing to fix in the
    // request, and a retry shortly is expected to work. Create's unknown outcomes never get here:
    // they answer attempt_unresolved (IdempotentRequests).
    logger.warn(
      `database unavailable: ${exception instanceof Error ? exception.message : String(exception)}`,
    );
    return new ApiError(
      503,
      'service_unavailable',
      'the service cannot reach its database right now; retry shortly',
      undefined,
      { 'Retry-After': '1' },
    );
  }
  const fastifyCode = (exception as { code?: unknown })?.code;
  if (typeof fastifyCode === 'string' && FASTIFY_ERRORS[fastifyCode]) {
    return FASTIFY_ERRORS[fastifyCode]((exception as Error).message);
  }
  if (exception instanceof SyntaxError || (exception as { statusCode?: number })?.statusCode === 400) {
    return new ApiError(400, 'invalid_request', 'request body is not valid JSON');
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) return new ApiError(404, 'not_found', 'no such endpoint');
    if (status === 413) return FASTIFY_ERRORS.FST_ERR_CTP_BODY_TOO_LARGE!('');
    if (status === 415) return FASTIFY_ERRORS.FST_ERR_CTP_INVALID_MEDIA_TYPE!('');
    if (status === 405) return new ApiError(405, 'method_not_allowed', 'method not allowed');
    if (status < 500) return new ApiError(status, 'invalid_request', exception.message);
  }
  logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
  return new ApiError(
    500,
    'internal_error',
    'something went wrong on our side; the request id identifies it',
  );
}
