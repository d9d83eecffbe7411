import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiError } from '@payouts/http';
import type { IdempotentResult } from '@payouts/idempotency';
import type { FastifyReply } from 'fastify';
import { PayoutAuthGuard } from '../auth/payout-auth.guard';
import { ApiErrors, PAYOUT_AUTH_403 } from '../openapi/decorators';
import { PAYOUT_ID } from './payout-id';

/**
 * The payout endpoints, under `/api/payout` (production) and `/sandbox/api/payout` (sandbox): what every
 * payout route class shares. Each feature folder holds its own route class with this decorator.
 */
export const PayoutRoutes = () =>
  applyDecorators(
    Controller(['api/payout', 'sandbox/api/payout']),
    UseGuards(PayoutAuthGuard),
    ApiTags('Payouts'),
    ApiBearerAuth('payout_credential'),
    ApiErrors({ 401: [], 403: PAYOUT_AUTH_403, 429: [] }),
  );

/** An idempotent command's answer: its status, the replay header when replayed, its body. */
export function send(reply: FastifyReply, result: IdempotentResult): unknown {
  void reply.status(result.status);
  if (result.replayed) void reply.header('Idempotent-Replayed', 'true');
  return result.body;
}

/** A malformed id cannot name a payout: 404 like any unknown one. */
export function checkedPayoutId(payoutId: string): string {
  if (!PAYOUT_ID.test(payoutId)) throw new ApiError(404, 'not_found', 'no such payout');
  return payoutId;
}
