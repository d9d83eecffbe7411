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
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { AppConfig } from '@payouts/config';
import {
  CancelPayoutCommand,
  CreatePayoutCommand,
  IssueClaimLinkCommand,
  newPayoutId,
  StartRedirectSessionCommand,
} from '@payouts/payouts';
import { ApiError, apiValidationPipe, APP_CONFIG } from '@payouts/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PayoutAuthGuard } from '../auth/payout-auth.guard';
import { Principal, RequiresScope } from '../auth/payout-principal';
import type { PayoutPrincipal } from '../auth/payout-principal';
import { IdempotentRequests, IdempotentResult } from '../idempotency/idempotent-requests';
import { CreatePayoutDto } from './create-payout.dto';
import { parseListQuery } from './list-query';
import { PayoutQueries } from './payout-queries';
import { createPayoutResponse, payoutMerchantView, payoutUrl } from './payout-responses';
import { ReturnUrlPolicy } from './return-url-policy';

const PAYOUT_ID = /^po_[0-9a-f]{24}$/;

/** Spec 4.2, under `/api/payout` (production) and `/sandbox/api/payout` (sandbox). */
@Controller(['api/payout', 'sandbox/api/payout'])
@UseGuards(PayoutAuthGuard)
export class PayoutsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: PayoutQueries,
    private readonly idempotent: IdempotentRequests,
    private readonly returnUrls: ReturnUrlPolicy,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('create')
  @RequiresScope('payouts:write')
  async create(
    @Principal() principal: PayoutPrincipal,
    @Body(apiValidationPipe()) body: CreatePayoutDto,
    @Headers('idempotency-key') key: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.idempotent.run(
      principal,
      { method: 'POST', path: '/api/payout/create', key, body },
      newPayoutId(),
      async (payoutId, retryOfUnresolved) => {
        if (retryOfUnresolved) {
          // The earlier attempt may have written the payout: return it rather than create a second.
          const existing = await this.queries.find(principal.accountId, principal.environment, payoutId);
          if (existing) {
            const answer = { ...existing, payout_url: null };
            return { status: 201, body: answer };
          }
        }
        if (body.delivery === 'redirect') this.returnUrls.assertRegistered(principal, body.return_url ?? '');
        const balance = await this.queries.balance(principal.accountId, principal.environment);
        if (!balance.available) throw new ApiError(409, 'balance_unavailable', balance.body.reason);
        const created = await this.commands.execute(
          new CreatePayoutCommand({
            payoutId,
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
        return {
          status: 201,
          body: createPayoutResponse(created.payout, url, created.accessExpiresAt),
          // payout_url is returned once; a replay carries null (spec 4.2, rule 1).
          stored: createPayoutResponse(created.payout, null, created.accessExpiresAt),
        };
      },
    );
    void request;
    return send(reply, result);
  }

  @Get('list')
  @RequiresScope('payouts:read')
  list(@Principal() principal: PayoutPrincipal, @Query() query: Record<string, unknown>) {
    return this.queries.list(principal.accountId, principal.environment, parseListQuery(query));
  }

  @Get('balance')
  @RequiresScope('payouts:read')
  async balance(@Principal() principal: PayoutPrincipal) {
    return (await this.queries.balance(principal.accountId, principal.environment)).body;
  }

  @Get(':payout_id')
  @RequiresScope('payouts:read')
  get(@Principal() principal: PayoutPrincipal, @Param('payout_id') payoutId: string) {
    return this.queries.get(principal.accountId, principal.environment, checkedPayoutId(payoutId));
  }

  @Post(':payout_id/link')
  @HttpCode(200)
  @RequiresScope('payouts:write')
  async link(
    @Principal() principal: PayoutPrincipal,
    @Param('payout_id') payoutId: string,
    @Body() body: unknown,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const rotate = parseRotate(body);
    const id = checkedPayoutId(payoutId);
    const result = await this.idempotent.run(
      principal,
      { method: 'POST', path: `/api/payout/${id}/link`, key, body: { rotate } },
      id,
      async () => {
        const issued = await this.commands.execute(
          new IssueClaimLinkCommand(principal.accountId, principal.environment, id, rotate),
        );
        const url = payoutUrl(
          this.config.publicBaseUrl,
          principal.environment,
          'link',
          issued.accessToken ?? '',
        );
        return {
          status: 200,
          body: { payout_id: id, url, rotated: rotate, access_link_expires_at: issued.accessExpiresAt },
        };
      },
    );
    return send(reply, result);
  }

  @Post(':payout_id/session')
  @HttpCode(200)
  @RequiresScope('payouts:write')
  async session(
    @Principal() principal: PayoutPrincipal,
    @Param('payout_id') payoutId: string,
    @Body() body: unknown,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const customerId = parseCustomerId(body);
    const id = checkedPayoutId(payoutId);
    const result = await this.idempotent.run(
      principal,
      { method: 'POST', path: `/api/payout/${id}/session`, key, body: { customer_id: customerId } },
      id,
      async () => {
        const started = await this.commands.execute(
          new StartRedirectSessionCommand(principal.accountId, principal.environment, id, customerId),
        );
        const url = payoutUrl(
          this.config.publicBaseUrl,
          principal.environment,
          'redirect',
          started.accessToken ?? '',
        );
        return {
          status: 200,
          body: { payout_id: id, payout_url: url, access_link_expires_at: started.accessExpiresAt },
          // The handoff works once; a replay must not hand it out again.
          stored: { payout_id: id, payout_url: null, access_link_expires_at: started.accessExpiresAt },
        };
      },
    );
    return send(reply, result);
  }

  @Post(':payout_id/cancel')
  @HttpCode(200)
  @RequiresScope('payouts:write')
  async cancel(
    @Principal() principal: PayoutPrincipal,
    @Param('payout_id') payoutId: string,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const id = checkedPayoutId(payoutId);
    const result = await this.idempotent.run(
      principal,
      { method: 'POST', path: `/api/payout/${id}/cancel`, key, body: null },
      id,
      async () => {
        const payout = await this.commands.execute(
          new CancelPayoutCommand(principal.accountId, principal.environment, id),
        );
        if (payout.status === 'none') throw new ApiError(404, 'not_found', 'no such payout');
        return { status: 200, body: payoutMerchantView(payout) };
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
  if (typeof customerId !== 'string' || customerId.length === 0 || customerId.length > 191) {
    throw new ApiError(400, 'invalid_request', 'customer_id must be 1 to 191 characters', 'customer_id');
  }
  return customerId;
}
