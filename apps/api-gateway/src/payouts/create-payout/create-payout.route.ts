import { Body, Headers, Inject, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiCreatedResponse, ApiOperation } from '@nestjs/swagger';
import type { AppConfig } from '@payouts/config';
import { IdempotentRequests } from '@payouts/idempotency';
import { PayoutQueries } from '@payouts/payouts';
import { APP_CONFIG } from '@payouts/platform';
import { WritePath } from '@payouts/write-side';
import type { FastifyReply } from 'fastify';
import { DefersPreconditionRefusals, Principal, RequiresScope } from '../../auth/payout-principal';
import type { PayoutPrincipal } from '../../auth/payout-principal';
import {
  ApiErrors,
  ApiIdempotencyKey,
  IDEMPOTENCY_400,
  IDEMPOTENCY_409,
  IDEMPOTENCY_422,
  IDEMPOTENCY_503,
  REPLAYED_HEADER,
} from '../../openapi/decorators';
import { CreatePayoutResponse } from '../../openapi/payout.schemas';
import { PayoutRoutes, send } from '../payout-routes';
import { CreatePayoutDto } from './create-payout.dto';
import { createPayoutIdempotently, PayoutCreationServices } from './payout-creation';
import { ReturnUrlPolicy } from './return-url-policy';

/** Create Payout's idempotency path (the same in both environments). */
const CREATE_PATH = '/api/payout/create';

/** Create Payout (`POST /api/payout/create`): the route of the create-payout feature. */
@PayoutRoutes()
export class CreatePayoutRoute {
  private readonly services: PayoutCreationServices;

  constructor(
    commands: CommandBus,
    queries: PayoutQueries,
    idempotent: IdempotentRequests,
    writes: WritePath,
    private readonly returnUrls: ReturnUrlPolicy,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.services = { commands, queries, idempotent, writes, config };
  }

  @Post('create')
  @RequiresScope('payouts:write')
  @DefersPreconditionRefusals()
  @ApiOperation({
    summary: 'Create Payout',
    description: 'Scope `payouts:write`. Funds are reserved on return.',
  })
  @ApiIdempotencyKey()
  @ApiBody({ type: CreatePayoutDto })
  @ApiCreatedResponse({
    description: 'The payout, created with its funds reserved',
    type: CreatePayoutResponse,
    headers: REPLAYED_HEADER,
  })
  @ApiErrors({
    400: [
      ...IDEMPOTENCY_400,
      'invalid_amount',
      'destination_not_accepted',
      'unsupported_currency',
      'return_url_not_registered',
    ],
    409: [
      'duplicate_merchant_reference',
      'insufficient_funds',
      'balance_unavailable',
      'concurrent_update',
      ...IDEMPOTENCY_409,
    ],
    413: [],
    415: [],
    422: ['amount_out_of_range', 'exposure_limit_exceeded', 'customer_pending_limit', ...IDEMPOTENCY_422],
    503: IDEMPOTENCY_503,
  })
  async create(
    @Principal() principal: PayoutPrincipal,
    @Body() rawBody: unknown,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await createPayoutIdempotently(this.services, {
      owner: principal,
      path: CREATE_PATH,
      key,
      body: rawBody,
      source: 'api',
      refusal: principal.refusal,
      assertReturnUrl: (returnUrl) => this.returnUrls.assertRegistered(principal, returnUrl),
    });
    return send(reply, result);
  }
}
