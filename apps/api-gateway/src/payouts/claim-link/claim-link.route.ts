import { Body, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiError } from '@payouts/http';
import { IdempotentRequests, requireIdempotencyKey } from '@payouts/idempotency';
import { SealedAnswerUrls } from '@payouts/payouts';
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
  REPLAYED_HEADER,
} from '../../openapi/decorators';
import { ClaimLinkRequest, ClaimLinkResponse } from '../../openapi/payout.schemas';
import { checkedPayoutId, PayoutRoutes, send } from '../payout-routes';
import { issueClaimLinkIdempotently } from './claim-link-issue';

/** Get or Rotate Claim Link (`POST /api/payout/{payout_id}/link`): the route of the claim-link feature. */
@PayoutRoutes()
export class ClaimLinkRoute {
  constructor(
    readonly commands: CommandBus,
    readonly idempotent: IdempotentRequests,
    readonly answerUrls: SealedAnswerUrls,
  ) {}

  @Post(':payout_id/link')
  @HttpCode(200)
  @RequiresScope('payouts:write')
  @ApiOperation({
    summary: 'Get or Rotate Claim Link',
    description:
      'Scope `payouts:write`. Link payouts only. Without `rotate`, shows the current link again (no new link, fee or deadline); `rotate: true` replaces it and invalidates the old one.',
  })
  @ApiIdempotencyKey()
  @ApiPayoutIdParam()
  @ApiBody({ type: ClaimLinkRequest, required: false })
  @ApiOkResponse({ description: 'The claim link', type: ClaimLinkResponse, headers: REPLAYED_HEADER })
  @ApiErrors({
    400: IDEMPOTENCY_400,
    404: [],
    409: [
      'wrong_delivery',
      'link_unavailable',
      'not_resumable',
      'invalid_transition',
      'concurrent_update',
      ...IDEMPOTENCY_409,
    ],
    413: [],
    415: [],
    422: IDEMPOTENCY_422,
    503: IDEMPOTENCY_503,
  })
  async link(
    @Principal() principal: PayoutPrincipal,
    @Param('payout_id') payoutId: string,
    @Body() body: unknown,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    requireIdempotencyKey(key);
    const rotate = parseRotate(body);
    const id = checkedPayoutId(payoutId);
    const result = await issueClaimLinkIdempotently(this, {
      owner: principal,
      path: `/api/payout/${id}/link`,
      key,
      payoutId: id,
      rotate,
    });
    return send(reply, result);
  }
}

function parseRotate(body: unknown): boolean {
  if (body === undefined || body === null) return false;
  if (typeof body !== 'object' || Array.isArray(body))
    throw new ApiError(400, 'invalid_request', 'the body must be a JSON object');
  const { rotate, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown) throw new ApiError(400, 'invalid_request', `${unknown} is not a known field`, unknown);
  if (rotate !== undefined && typeof rotate !== 'boolean') {
    throw new ApiError(400, 'invalid_request', 'rotate must be true or false', 'rotate');
  }
  return rotate === true;
}
