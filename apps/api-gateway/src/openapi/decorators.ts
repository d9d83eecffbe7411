import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiParam, ApiResponse } from '@nestjs/swagger';
import { ErrorBody } from '@payouts/http';
import { PAYOUT_ID_PATTERN_TEXT } from './payout.schemas';

/** What each status means when the API answers it; endpoints name the codes they can give. */
const TITLES: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing, unknown or revoked credential: `unauthenticated`',
  403: 'Not allowed',
  404: 'No such resource: `not_found`',
  409: 'Conflict',
  413: 'Request body larger than 64 KiB: `payload_too_large`',
  415: 'Request body is not JSON in UTF-8: `unsupported_media_type`',
  422: 'Refused',
  410: 'Gone',
  429: 'Too many requests for this credential (see the `Retry-After` header): `rate_limited`',
  502: "The merchant's server did not accept what was sent",
  503: 'Outcome unknown or not available',
};

/** The error responses of an endpoint: status → the codes it answers with (empty: the title says it). */
export function ApiErrors(codes: Record<number, string[]>): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...Object.entries(codes).map(([status, list]) =>
      ApiResponse({
        status: Number(status),
        type: ErrorBody,
        description:
          list.length > 0
            ? `${TITLES[Number(status)] ?? 'Error'}: ${list.map((c) => `\`${c}\``).join(', ')}`
            : (TITLES[Number(status)] ?? 'Error'),
      }),
    ),
  );
}

/**
 * Refusals of the payout authentication guard, on every payout endpoint
 * (docs/design.md#credentials-and-scopes).
 */
export const PAYOUT_AUTH_403 = [
  'wrong_environment',
  'wrong_credential_kind',
  'insufficient_scope',
  'payouts_not_approved',
  'payouts_disabled',
];

/** Refusals of the idempotency layer, on every payout POST (docs/design.md#idempotency). */
export const IDEMPOTENCY_400 = ['idempotency_key_required', 'invalid_request'];
export const IDEMPOTENCY_409 = ['idempotency_key_in_progress'];
export const IDEMPOTENCY_422 = ['idempotency_key_reused'];
export const IDEMPOTENCY_503 = ['attempt_unresolved'];

/** Required on every payout POST (docs/design.md#idempotency). */
export const ApiIdempotencyKey = () =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: true,
    description:
      'Unique key per attempt, 1 to 255 printable characters, kept 30 days. A retry with the same key answers the stored status and body with `Idempotent-Replayed: true`',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  });

export const ApiPayoutIdParam = () =>
  ApiParam({
    name: 'payout_id',
    description: 'A malformed or unknown id answers 404 `not_found`',
    schema: { type: 'string', pattern: PAYOUT_ID_PATTERN_TEXT },
  });

/** Set on a replayed answer of a payout POST. */
export const REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier request with the same key',
    schema: { type: 'string', enum: ['true'] },
  },
};
