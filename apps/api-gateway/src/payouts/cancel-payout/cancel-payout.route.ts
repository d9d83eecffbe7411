import { Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { IdempotentRequests, requireIdempotencyKey } from '@payouts/idempotency';
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
import { PayoutMerchantView } from '../../openapi/payout.schemas';
import { checkedPayoutId, PayoutRoutes, send } from '../payout-routes';
import { cancelPayoutIdempotently } from './payout-cancellation';

/** Cancel Payout (`POST /api/payout/{payout_id}/cancel`): the route of the cancel-payout feature. */
@PayoutRoutes()
export class CancelPayoutRoute {
  constructor(
    readonly commands: CommandBus,
    readonly idempotent: IdempotentRequests,
  ) {}

  @Post(':payout_id/cancel')
  @HttpCode(200)
  @RequiresScope('payouts:write')
  @ApiOperation({
    summary: 'Cancel Payout',
    description:
      'Scope `payouts:write`. No body. A payout already cancelled, expired or failed is returned unchanged.',
  })
  @ApiIdempotencyKey()
  @ApiPayoutIdParam()
  @ApiOkResponse({ description: 'The payout', type: PayoutMerchantView, headers: REPLAYED_HEADER })
  @ApiErrors({
    400: IDEMPOTENCY_400,
    404: [],
    409: ['not_cancellable', 'concurrent_update', ...IDEMPOTENCY_409],
    413: [],
    415: [],
    422: IDEMPOTENCY_422,
    503: IDEMPOTENCY_503,
  })
  async cancel(
    @Principal() principal: PayoutPrincipal,
    @Param('payout_id') payoutId: string,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    requireIdempotencyKey(key);
    const id = checkedPayoutId(payoutId);
    const result = await cancelPayoutIdempotently(this, {
      owner: principal,
      path: `/api/payout/${id}/cancel`,
      key,
      payoutId: id,
    });
    return send(reply, result);
  }
}
