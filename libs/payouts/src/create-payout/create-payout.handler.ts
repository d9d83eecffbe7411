import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  claimMerchantReference,
  decideLedger,
  decidePayout,
  evolveLedger,
  evolvePayout,
  initialPayoutState,
  LEDGER_AGGREGATE,
  LEDGER_EVENT_SCHEMA_VERSIONS,
  LEDGER_STREAM_TYPE,
  LedgerState,
  ledgerStreamId,
  MERCHANT_REFERENCE_AGGREGATE,
  MERCHANT_REFERENCE_EVENT_SCHEMA_VERSION,
  MERCHANT_REFERENCE_STREAM_TYPE,
  PAYOUT_EVENT_SCHEMA_VERSIONS,
  PAYOUT_STREAM_TYPE,
  PayoutFundsReserved,
  payoutStreamId,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { answerRow } from '@payouts/idempotency';
import type { Clock } from '@payouts/clock';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import { BALANCE_MAX_LAG_EVENTS } from '@payouts/read-models';
import {
  AggregateCache,
  appendTo,
  Decides,
  Decision,
  GivenStates,
  LoadedAggregate,
  loadAggregate,
  WritePath,
} from '@payouts/write-side';
import { ClaimLinkTokens } from '../shared/claim-link-tokens';
import { newHandoffToken } from '../shared/identifiers';
import { merchantReferenceStreamId } from '../shared/merchant-reference-stream-id';
import { payoutJobRows } from '../shared/payout-job-rows';
import { createPayoutResponse } from '../shared/payout-responses';
import { CreatePayoutCommand, CreatePayoutResult } from './create-payout.command';

/**
 * Creates a payout and reserves amount + fee in one atomic append across three streams: the
 * account's ledger (the money boundary, with its expected version), the new payout, and the
 * merchant reference's claim. Either all three are written, with the request's stored answer,
 * or nothing is.
 */
@CommandHandler(CreatePayoutCommand)
export class CreatePayoutHandler
  implements
    ICommandHandler<CreatePayoutCommand, CreatePayoutResult>,
    Decides<CreatePayoutCommand, CreatePayoutResult>
{
  /** The first attempt trusts the cached ledger: a refusal it decides is decided again afresh. */
  readonly firstAttemptOptimistic = true;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly cache: AggregateCache,
    private readonly links: ClaimLinkTokens,
    private readonly writes: WritePath,
  ) {}

  execute(command: CreatePayoutCommand): Promise<CreatePayoutResult> {
    return this.writes.execute(command, this);
  }

  locksFor({ input }: CreatePayoutCommand): readonly string[] {
    return [ledgerStreamId(input.accountId, input.environment)];
  }

  /** A hot account's creates are decided together on its ledger and committed as one append. */
  batchesOn({ input }: CreatePayoutCommand): string {
    return ledgerStreamId(input.accountId, input.environment);
  }

  async decide(
    command: CreatePayoutCommand,
    attempt: number,
    given?: GivenStates,
  ): Promise<Decision<CreatePayoutResult>> {
    const { input, payoutId } = command;
    const now = this.clock.now(input.environment);
    const ledgerId = ledgerStreamId(input.accountId, input.environment);
    const referenceId = merchantReferenceStreamId(
      input.accountId,
      input.environment,
      input.merchantReference,
    );
    // The first attempt reads nothing: it trusts the cached ledger and takes the reference to be
    // new. The append's expected versions check both; a conflict or a refusal sends every later
    // attempt to the store.
    const optimistic = attempt === 1;
    const givenLedger = given?.get(ledgerId) as LoadedAggregate<LedgerState> | undefined;
    const [ledger, reference] = await Promise.all([
      givenLedger ??
        this.cache.load(this.store, ledgerId, LEDGER_AGGREGATE, {
          trustCached: optimistic,
        }),
      optimistic
        ? { state: { claimedBy: null }, version: 0 }
        : loadAggregate(this.store, referenceId, MERCHANT_REFERENCE_AGGREGATE),
    ]);

    const referenceEvents = claimMerchantReference(
      reference.state,
      {
        accountId: input.accountId,
        environment: input.environment,
        merchantReference: input.merchantReference,
        payoutId,
      },
      now,
    );
    const customerKey =
      input.delivery === 'link'
        ? `email:${(input.customerEmail ?? '').toLowerCase()}`
        : `customer:${input.customerId ?? ''}`;
    const ledgerEvents = decideLedger(
      { type: 'ReservePayoutFunds', data: { payoutId, customerKey, amount: input.amount } },
      ledger.state,
      now,
    );
    const reservation = ledgerEvents.find((e): e is PayoutFundsReserved => e.type === 'PayoutFundsReserved');
    if (!reservation) throw new Error('ledger reserved nothing for a new payout');
    const access = input.delivery === 'link' ? this.links.issue(payoutId) : newHandoffToken(payoutId);
    const payoutEvents = decidePayout(
      {
        type: 'CreatePayout',
        data: {
          payoutId,
          accountId: input.accountId,
          environment: input.environment,
          amount: input.amount,
          fee: reservation.data.fee,
          merchantReference: input.merchantReference,
          delivery: input.delivery,
          customerEmail: input.customerEmail ?? null,
          customerId: input.customerId ?? null,
          returnUrl: input.returnUrl ?? null,
          description: input.description ?? null,
          caseReference: input.caseReference ?? null,
          originalPaymentId: input.originalPaymentId ?? null,
          source: input.source ?? 'api',
          access: { id: access.id, tokenHash: access.tokenHash },
        },
      },
      initialPayoutState(),
      now,
    );
    const payout = payoutEvents.reduce(evolvePayout, initialPayoutState());
    if (payout.status !== 'awaiting_choice') throw new Error('a new payout must await the recipient');
    const accessEvent = payoutEvents.find(
      (e) => e.type === 'ClaimLinkIssued' || e.type === 'RedirectSessionStarted',
    );
    const accessExpiresAt = accessEvent?.data.expiresAt ?? payout.payoutExpiresAt;

    return {
      plan: {
        appends: [
          appendTo(ledgerId, LEDGER_STREAM_TYPE, ledger.version, ledgerEvents, LEDGER_EVENT_SCHEMA_VERSIONS),
          appendTo(
            payoutStreamId(payoutId),
            PAYOUT_STREAM_TYPE,
            0,
            payoutEvents,
            PAYOUT_EVENT_SCHEMA_VERSIONS,
          ),
          appendTo(referenceId, MERCHANT_REFERENCE_STREAM_TYPE, 0, referenceEvents, {
            MerchantReferenceClaimed: MERCHANT_REFERENCE_EVENT_SCHEMA_VERSION,
          }),
        ],
        // The payout's job row (its expiry timer) and, with a hold, the stored answer: payout_url
        // is returned once, a replay carries null (docs/design.md#idempotency).
        rows: [
          ...payoutJobRows(payoutEvents),
          ...(input.hold
            ? [answerRow(input.hold, 201, createPayoutResponse(payout, null, accessExpiresAt))]
            : []),
        ],
        // A balance that trails the ledger beyond its bound refuses with 409 balance_unavailable.
        maxBalanceLagEvents: BALANCE_MAX_LAG_EVENTS,
      },
      result: { payout, accessToken: access.token, accessExpiresAt },
      cached: [
        {
          streamId: ledgerId,
          state: ledgerEvents.reduce(evolveLedger, ledger.state),
          version: ledger.version + ledgerEvents.length,
        },
      ],
    };
  }
}
