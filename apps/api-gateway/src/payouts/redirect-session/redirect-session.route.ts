import { Body, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { characterCount, PAYOUT_TEXT_LIMITS } from '@payouts/domain';
import { ApiError } from '@payouts/http';
import { IdempotentRequests, requireIdempotencyKey } from '@payouts/idempotency';
import { SealedAnswerUrls, StartRedirectSessionCommand } from '@payouts/payouts';
import type { FastifyReply } from 'fastify';
import { Principal, RequiresScope } from '../../auth/payout-principal';
import type { PayoutPrincipal } from '../../auth/payout-principal';
import {
  ApiErrors,
  ApiIdempotencyKey,
  ApiPayoutIdParam,
  IDEMPOTENCY_400,
  IDEMPOTENCY_409,
  IDEMPOTENCY_422,
  IDEMPOTENCY_503,
  PAYOUT_AUTH_403,
  REPLAYED_HEADER,
} from '../../openapi/decorators';
import { RedirectSessionRequest, RedirectSessionResponse } from '../../openapi/payout.schemas';
import { checkedPayoutId, PayoutRoutes, send } from '../payout-routes';

/**
 * Create Redirect Session (`POST /api/payout/{payout_id}/session`): the route of the
 * redirect-session feature.
 */
@PayoutRoutes()
export class RedirectSessionRoute {
  constructor(
    private readonly commands: CommandBus,
    private readonly idempotent: IdempotentRequests,
    private readonly answerUrls: SealedAnswerUrls,
  ) {}

  @Post(':payout_id/session')
  @HttpCode(200)
  @RequiresScope('payouts:write')
  @ApiOperation({
    summary: 'Create Redirect Session',
    description: 'Scope `payouts:write`. Redirect payouts only; the handoff is single use, 10 minutes.',
  })
  @ApiIdempotencyKey()
  @ApiPayoutIdParam()
  @ApiBody({ type: RedirectSessionRequest })
  @ApiOkResponse({ description: 'A new handoff', type: RedirectSessionResponse, headers: REPLAYED_HEADER })
  @ApiErrors({
    400: IDEMPOTENCY_400,
    403: [...PAYOUT_AUTH_403, 'customer_mismatch'],
    404: [],
    409: ['wrong_delivery', 'not_resumable', 'concurrent_update', ...IDEMPOTENCY_409],
    413: [],
    415: [],
    422: IDEMPOTENCY_422,
    503: IDEMPOTENCY_503,
  })
  async session(
    @Principal() principal: PayoutPrincipal,
    @Param('payout_id') payoutId: string,
    @Body() body: unknown,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    requireIdempotencyKey(key);
    const customerId = parseCustomerId(body);
    const id = checkedPayoutId(payoutId);
    const result = await this.idempotent.handle(
      {
        owner: principal,
        path: `/api/payout/${id}/session`,
        key,
        body: { customer_id: customerId },
        resourceId: id,
      },
      async (hold) => {
        const started = await this.commands.execute(
          new StartRedirectSessionCommand(principal.accountId, principal.environment, id, customerId, hold),
        );
        return { status: 200, body: started.answer?.body, committed: true };
      },
      { replayed: (stored) => this.answerUrls.open(stored, 'payout_url') },
    );
    return send(reply, result);
  }
}

function parseCustomerId(body: unknown): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, 'invalid_request', 'customer_id is required', 'customer_id');
  }
  const { customer_id: customerId, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown) throw new ApiError(400, 'invalid_request', `${unknown} is not a known field`, unknown);
  if (
    typeof customerId !== 'string' ||
    customerId.length === 0 ||
    characterCount(customerId) > PAYOUT_TEXT_LIMITS.customer_id
  ) {
    throw new ApiError(400, 'invalid_request', 'customer_id must be 1 to 191 characters', 'customer_id');
  }
  return customerId;
}
