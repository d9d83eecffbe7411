import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { characterCount, ledgerStreamId, PAYOUT_STATUSES, PAYOUT_TEXT_LIMITS } from '@payouts/domain';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { AppConfig } from '@payouts/config';
import { IdempotentRequests, requireIdempotencyKey } from '@payouts/idempotency';
import type { IdempotentResult } from '@payouts/idempotency';
import {
  CancelPayoutCommand,
  createPayoutResponse,
  CreatePayoutCommand,
  createResponseFromView,
  IssueClaimLinkCommand,
  newPayoutId,
  payoutMerchantView,
  payoutUrl,
  SealedAnswerUrls,
  StartRedirectSessionCommand,
} from '@payouts/payouts';
import { APP_CONFIG } from '@payouts/platform';
import { WritePath } from '@payouts/write-side';
import { ApiError, apiValidationPipe } from '@payouts/http';
import type { FastifyReply } from 'fastify';
import { PayoutAuthGuard } from '../auth/payout-auth.guard';
import {
  DefersPreconditionRefusals,
  PrefetchedBesideCredential,
  Principal,
  RequiresScope,
} from '../auth/payout-principal';
import type { PayoutPrincipal } from '../auth/payout-principal';
import { acceptedCommonCreateBody } from './common-create-body';
import { CreatePayoutDto } from './create-payout.dto';
import { parseListQuery } from './list-query';
import { PayoutQueries } from './payout-queries';
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
} from '../openapi/decorators';
import {
  BalanceResponse,
  BalanceUnavailableResponse,
  ClaimLinkRequest,
  ClaimLinkResponse,
  CreatePayoutResponse,
  ListPayoutsResponse,
  PayoutMerchantView,
  RedirectSessionRequest,
  RedirectSessionResponse,
} from '../openapi/payout.schemas';
import { PAYOUT_ID } from './payout-id';
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

/** Spec 4.2, under `/api/payout` (production) and `/sandbox/api/payout` (sandbox). */
@Controller(['api/payout', 'sandbox/api/payout'])
@UseGuards(PayoutAuthGuard)
@ApiTags('Payouts')
@ApiBearerAuth('payout_credential')
@ApiExtraModels(BalanceResponse, BalanceUnavailableResponse)
@ApiErrors({ 401: [], 403: PAYOUT_AUTH_403, 429: [] })
export class PayoutsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: PayoutQueries,
    private readonly idempotent: IdempotentRequests,
    private readonly writes: WritePath,
    private readonly returnUrls: ReturnUrlPolicy,
    private readonly answerUrls: SealedAnswerUrls,
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
    // The guard's refusal (scope, approval, switch) stays the refusal of this key (spec 4.2, rule 4).
    if (principal.refusal) {
      await this.idempotent.keepRefusal(request, principal.refusal);
      throw principal.refusal;
    }
    // An account whose ledger has more creates waiting than it commits in a moment hears so at
    // once, before any work: nothing is stored, and the same key may come again.
    this.writes.refuseIfOverloaded(ledgerStreamId(principal.accountId, principal.environment));
    const result = await this.idempotent.handle(request, async (hold) => {
      // Validated after the key: a body the rules refuse is a rejected create, kept for its key
      // like any other (spec 4.2, rule 4), and a request without a key hears about the key first.
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

  @Get('list')
  @RequiresScope('payouts:read')
  @ApiOperation({ summary: 'List Payouts', description: 'Scope `payouts:read`. Newest first.' })
  // Listed last to first: Swagger adds them in the reverse order of the decorators.
  @ApiQuery({ name: 'offset', required: false, schema: { type: 'integer', minimum: 0, default: 0 } })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: 'Page size; above 200 is capped at 200',
    schema: { type: 'integer', minimum: 1, default: 50 },
  })
  @ApiQuery({
    name: 'until',
    required: false,
    description: 'Created before, exclusive (ISO 8601 UTC)',
    schema: { type: 'string', format: 'date-time' },
  })
  @ApiQuery({
    name: 'since',
    required: false,
    description: 'Created at or after (ISO 8601 UTC)',
    schema: { type: 'string', format: 'date-time' },
  })
  @ApiQuery({ name: 'status', required: false, schema: { type: 'string', enum: [...PAYOUT_STATUSES] } })
  @ApiQuery({ name: 'customer_id', required: false, schema: { type: 'string', maxLength: 191 } })
  @ApiQuery({ name: 'merchant_reference', required: false, schema: { type: 'string', maxLength: 191 } })
  @ApiOkResponse({ description: 'One page of payouts', type: ListPayoutsResponse })
  @ApiErrors({ 400: ['invalid_request'] })
  list(@Principal() principal: PayoutPrincipal, @Query() query: Record<string, unknown>) {
    return this.queries.list(principal.accountId, principal.environment, parseListQuery(query));
  }

  @Get('balance')
  @RequiresScope('payouts:read')
  @ApiOperation({
    summary: 'Get Payout Balance',
    description:
      'Scope `payouts:read`. When the balance cannot be calculated the answer is `{currency, available: null, reason}`.',
  })
  @ApiOkResponse({
    description: 'The balance, or why it cannot be calculated',
    schema: {
      oneOf: [{ $ref: getSchemaPath(BalanceResponse) }, { $ref: getSchemaPath(BalanceUnavailableResponse) }],
    },
  })
  async balance(@Principal() principal: PayoutPrincipal) {
    return (await this.queries.balance(principal.accountId, principal.environment)).body;
  }

  @Get(':payout_id')
  @RequiresScope('payouts:read')
  @ApiOperation({ summary: 'Get Payout', description: 'Scope `payouts:read`.' })
  @ApiPayoutIdParam()
  @ApiOkResponse({ description: 'The payout', type: PayoutMerchantView })
  @ApiErrors({ 404: [] })
  @PrefetchedBesideCredential<PayoutQueries>({
    provider: PayoutQueries,
    start: (queries, params) => queries.prefetchView(params['payout_id']),
  })
  get(@Principal() principal: PayoutPrincipal) {
    return this.queries.ownView(principal.prefetched, principal.accountId, principal.environment);
  }

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
    const result = await this.idempotent.handle(
      { owner: principal, path: `/api/payout/${id}/link`, key, body: { rotate }, resourceId: id },
      async (hold) => {
        const issued = await this.commands.execute(
          new IssueClaimLinkCommand(principal.accountId, principal.environment, id, rotate, hold),
        );
        return { status: 200, body: issued.answer?.body, committed: true };
      },
      { replayed: (stored) => this.answerUrls.open(stored, 'url') },
    );
    return send(reply, result);
  }

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
    const result = await this.idempotent.handle(
      { owner: principal, path: `/api/payout/${id}/cancel`, key, body: null, resourceId: id },
      async (hold) => {
        const payout = await this.commands.execute(
          new CancelPayoutCommand(principal.accountId, principal.environment, id, hold),
        );
        if (payout.status === 'none') throw new ApiError(404, 'not_found', 'no such payout');
        return { status: 200, body: payoutMerchantView(payout), committed: true };
      },
    );
    return send(reply, result);
  }
}

function send(reply: FastifyReply, result: IdempotentResult): unknown {
  void reply.status(result.status);
  if (result.replayed) void reply.header('Idempotent-Replayed', 'true');
  return result.body;
}

/** A malformed id cannot name a payout: 404 like any unknown one. */
function checkedPayoutId(payoutId: string): string {
  if (!PAYOUT_ID.test(payoutId)) throw new ApiError(404, 'not_found', 'no such payout');
  return payoutId;
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
