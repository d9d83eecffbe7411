import { Body, Headers, Inject, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiCreatedResponse, ApiOperation } from '@nestjs/swagger';
import type { AppConfig } from '@payouts/config';
import { ledgerStreamId } from '@payouts/domain';
import { apiValidationPipe } from '@payouts/http';
import { IdempotentRequests } from '@payouts/idempotency';
import {
  CreatePayoutCommand,
  createPayoutResponse,
  createResponseFromView,
  newPayoutId,
  payoutUrl,
  PayoutQueries,
} from '@payouts/payouts';
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
import { acceptedCommonCreateBody } from './common-create-body';
import { CreatePayoutDto } from './create-payout.dto';
import { ReturnUrlPolicy } from './return-url-policy';

/** Create Payout's idempotency path (the same in both environments). */
const CREATE_PATH = '/api/payout/create';
const createBodyPipe = apiValidationPipe();

/**
 * The pipe's own rules and error body; `transform: false`, so the body comes back as sent. The
 * common body is accepted without the pipe (acceptedCommonCreateBody), to the same effect.
 */
async function validCreateBody(body: unknown): Promise<CreatePayoutDto> {
  return (
    acceptedCommonCreateBody(body) ??
    ((await createBodyPipe.transform(body, {
      type: 'body',
      metatype: CreatePayoutDto,
    })) as CreatePayoutDto)
  );
}

/** Create Payout (`POST /api/payout/create`): the route of the create-payout feature. */
@PayoutRoutes()
export class CreatePayoutRoute {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: PayoutQueries,
    private readonly idempotent: IdempotentRequests,
    private readonly writes: WritePath,
    private readonly returnUrls: ReturnUrlPolicy,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

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
    const request = {
      owner: principal,
      path: CREATE_PATH,
      key,
      body: rawBody,
      resourceId: newPayoutId(),
      firstAttemptUnclaimed: true,
    };
    // The guard's refusal (scope, approval, switch) stays the refusal of this key
    // (docs/design.md#idempotency).
    if (principal.refusal) {
      await this.idempotent.keepRefusal(request, principal.refusal);
      throw principal.refusal;
    }
    // An account whose ledger has more creates waiting than it commits in a moment hears so at
    // once, before any work: nothing is stored, and the same key may come again.
    this.writes.refuseIfOverloaded(ledgerStreamId(principal.accountId, principal.environment));
    const result = await this.idempotent.handle(request, async (hold) => {
      // Validated after the key: a body the rules refuse is a rejected create, kept for its key
      // like any other (docs/design.md#idempotency), and a request without a key hears about the key first.
      const body = await validCreateBody(rawBody);
      if (hold.retryOfUnresolved) {
        // The earlier attempt may have written the payout: return it rather than create a second.
        const existing = await this.queries.find(principal.accountId, principal.environment, hold.resourceId);
        if (existing) return { status: 201, body: createResponseFromView(existing), committed: false };
      }
      if (body.delivery === 'redirect') this.returnUrls.assertRegistered(principal, body.return_url ?? '');
      const created = await this.commands.execute(
        new CreatePayoutCommand({
          payoutId: hold.resourceId,
          hold,
          accountId: principal.accountId,
          environment: principal.environment,
          amount: body.amount,
          merchantReference: body.merchant_reference,
          delivery: body.delivery,
          customerEmail: body.customer_email ?? null,
          customerId: body.customer_id ?? null,
          returnUrl: body.return_url ?? null,
          description: body.description ?? null,
          caseReference: body.case_reference ?? null,
          originalPaymentId: body.original_payment_id ?? null,
        }),
      );
      const url = payoutUrl(
        this.config.publicBaseUrl,
        principal.environment,
        body.delivery,
        created.accessToken,
      );
      // Its stored answer (payout_url null) committed with the payout.
      return {
        status: 201,
        body: createPayoutResponse(created.payout, url, created.accessExpiresAt),
        committed: true,
      };
    });
    return send(reply, result);
  }
}
