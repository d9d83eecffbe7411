import type { CommandBus } from '@nestjs/cqrs';
import type { AppConfig } from '@payouts/config';
import { ledgerStreamId } from '@payouts/domain';
import type { PayoutSource } from '@payouts/domain';
import { apiValidationPipe } from '@payouts/http';
import type { ApiError } from '@payouts/http';
import type { IdempotentRequest, IdempotentRequests, IdempotentResult } from '@payouts/idempotency';
import {
  CreatePayoutCommand,
  createPayoutResponse,
  createResponseFromView,
  newPayoutId,
  payoutUrl,
  PayoutQueries,
} from '@payouts/payouts';
import type { WritePath } from '@payouts/write-side';
import { acceptedCommonCreateBody } from './common-create-body';
import { CreatePayoutDto } from './create-payout.dto';

const createBodyPipe = apiValidationPipe();

/**
 * The pipe's own rules and error body; `transform: false`, so the body comes back as sent. The
 * common body is accepted without the pipe (acceptedCommonCreateBody), to the same effect.
 */
export async function validCreateBody(body: unknown): Promise<CreatePayoutDto> {
  return (
    acceptedCommonCreateBody(body) ??
    ((await createBodyPipe.transform(body, {
      type: 'body',
      metatype: CreatePayoutDto,
    })) as CreatePayoutDto)
  );
}

/** What creating a payout uses: the command bus, the payout reads, idempotency and the write path. */
export interface PayoutCreationServices {
  commands: CommandBus;
  queries: PayoutQueries;
  idempotent: IdempotentRequests;
  writes: WritePath;
  config: AppConfig;
}

/** One Create Payout request, from the API (`POST /api/payout/create`) or the dashboard's form. */
export interface PayoutCreationRequest {
  /** The account and environment (the API's principal, the dashboard's session). */
  owner: IdempotentRequest['owner'];
  /** The idempotency scope's path. */
  path: string;
  /** The Idempotency-Key (the API's header, the dashboard form's hidden field). */
  key: string | undefined;
  /** The body as sent: Create Payout's fields, validated here after the key. */
  body: unknown;
  source: PayoutSource;
  /** The refusal of the account's preconditions (or the credential's scope), kept for the key. */
  refusal?: ApiError;
  /** Refuses a redirect payout's `return_url` that is not registered for the caller. */
  assertReturnUrl(returnUrl: string): void;
}

/**
 * Create Payout, the one way (docs/design.md#idempotency): a precondition refusal is kept for the
 * key; an overloaded ledger refuses before any work; then, under the key, the body's rules, the
 * return URL, and CreatePayoutCommand, whose answer (with the claim link or handoff, shown once)
 * commits with the payout. A replay answers the stored body (`payout_url` null).
 */
export async function createPayoutIdempotently(
  services: PayoutCreationServices,
  request: PayoutCreationRequest,
): Promise<IdempotentResult> {
  const { owner } = request;
  const idempotent: IdempotentRequest = {
    owner,
    path: request.path,
    key: request.key,
    body: request.body,
    resourceId: newPayoutId(),
    firstAttemptUnclaimed: true,
  };
  // The guard's refusal (scope, approval, switch) stays the refusal of this key
  // (docs/design.md#idempotency).
  if (request.refusal) {
    await services.idempotent.keepRefusal(idempotent, request.refusal);
    throw request.refusal;
  }
  // An account whose ledger has more creates waiting than it commits in a moment hears so at
  // once, before any work: nothing is stored, and the same key may come again.
  services.writes.refuseIfOverloaded(ledgerStreamId(owner.accountId, owner.environment));
  return services.idempotent.handle(idempotent, async (hold) => {
    // Validated after the key: a body the rules refuse is a rejected create, kept for its key
    // like any other (docs/design.md#idempotency), and a request without a key hears about the key first.
    const body = await validCreateBody(request.body);
    if (hold.retryOfUnresolved) {
      // The earlier attempt may have written the payout: return it rather than create a second.
      const existing = await services.queries.find(owner.accountId, owner.environment, hold.resourceId);
      if (existing) return { status: 201, body: createResponseFromView(existing), committed: false };
    }
    if (body.delivery === 'redirect') request.assertReturnUrl(body.return_url ?? '');
    const created = await services.commands.execute(
      new CreatePayoutCommand({
        payoutId: hold.resourceId,
        hold,
        accountId: owner.accountId,
        environment: owner.environment,
        amount: body.amount,
        merchantReference: body.merchant_reference,
        delivery: body.delivery,
        customerEmail: body.customer_email ?? null,
        customerId: body.customer_id ?? null,
        returnUrl: body.return_url ?? null,
        description: body.description ?? null,
        caseReference: body.case_reference ?? null,
        originalPaymentId: body.original_payment_id ?? null,
        source: request.source,
      }),
    );
    const url = payoutUrl(
      services.config.publicBaseUrl,
      owner.environment,
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
}
