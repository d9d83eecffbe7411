import { hasUnstorableCharacter } from '@payouts/domain';
import type { FastifyRequest } from 'fastify';
import { ApiError } from './api-error';
import { JsonBodyProblem, MAX_JSON_DEPTH, readJsonBody } from './strict-json';

/** Keys longer than this are refused without being echoed in the answer. */
const ECHOED_KEY_MAX_LENGTH = 191;

/**
 * The body parser of every app for `application/json` (it replaces Fastify's): the bytes as
 * strict-json reads them, each refusal as the documented error, before any guard or handler runs.
 * Fastify has already applied the body limit and checked Content-Length against the bytes.
 */
export function parseJsonBody(
  request: FastifyRequest,
  body: Buffer,
  done: (error: Error | null, value?: unknown) => void,
): void {
  const read = readJsonBody(body, request.headers['content-type']);
  if (read.ok) done(null, read.value);
  else done(jsonBodyRefusal(read.problem));
}

export function jsonBodyRefusal(problem: JsonBodyProblem): ApiError {
  switch (problem.kind) {
    case 'charset':
      return new ApiError(
        415,
        'unsupported_media_type',
        'request bodies must be JSON in UTF-8 (Content-Type: application/json, with no charset or charset=utf-8)',
      );
    case 'not_utf8':
      return new ApiError(400, 'invalid_request', 'request body is not valid UTF-8');
    case 'empty':
      return new ApiError(400, 'invalid_request', 'Content-Type is application/json but the body is empty');
    case 'too_deep':
      return new ApiError(
        400,
        'invalid_request',
        `request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`,
      );
    case 'duplicate_key':
      return keyRefusal(problem.key, ' more than once');
    case 'forbidden_key':
      return keyRefusal(problem.key, ', which is not accepted');
    case 'not_json':
      return new ApiError(400, 'invalid_request', 'request body is not valid JSON');
  }
}

/** Names the key (and sets it as `param`) unless it is too long or holds unstorable text. */
function keyRefusal(key: string, why: ' more than once' | ', which is not accepted'): ApiError {
  if (key.length > ECHOED_KEY_MAX_LENGTH || hasUnstorableCharacter(key)) {
    return new ApiError(400, 'invalid_request', `request body has a key${why}`);
  }
  return new ApiError(400, 'invalid_request', `request body has the key ${JSON.stringify(key)}${why}`, key);
}
