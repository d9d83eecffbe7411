import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  claimMerchantReference,
  decideLedger,
  decidePayout,
  evolveLedger,
  evolveMerchantReference,
  evolvePayout,
  initialLedgerState,
  initialPayoutState,
  LEDGER_EVENT_SCHEMA_VERSIONS,
  LEDGER_STREAM_TYPE,
  ledgerStreamId,
  MERCHANT_REFERENCE_EVENT_SCHEMA_VERSION,
  MERCHANT_REFERENCE_STREAM_TYPE,
  PAYOUT_EVENT_SCHEMA_VERSIONS,
  PAYOUT_STREAM_TYPE,
  PayoutFundsReserved,
  payoutStreamId,
} from '@payouts/domain';
import type { EventStore, StreamAppend } from '@payouts/event-store';
import { BALANCE_MAX_LAG_EVENTS } from '@payouts/read-models';
import { appendWithReadModels, AppendWithReadModelsOptions } from '../support/append-with-read-models';
import { GroupCommit } from '../support/group-commit';
import { expectedVersionOf, loadAggregate, toNewEvents } from '../support/aggregate-streams';
import type { Clock } from '@payouts/clock';
import { ClaimLinkTokens } from '../support/claim-link-tokens';
import { newHandoffToken, newPayoutId } from '../support/identifiers';
import { AggregateCache } from '../support/aggregate-cache';
import { LedgerLocks } from '../support/ledger-locks';
import { merchantReferenceStreamId } from '../support/merchant-reference-stream-id';
import { retryOnConflict } from '../support/retry-on-conflict';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import { CreatePayoutCommand, CreatePayoutResult } from './create-payout.command';

/**
 * Creates a payout and reserves amount + fee in one atomic append across three streams: the
 * account's ledger (the money boundary, with its expected version), the new payout, and the
 * merchant reference's claim. Either all three are written or none is.
 */
@CommandHandler(CreatePayoutCommand)
export class CreatePayoutHandler implements ICommandHandler<CreatePayoutCommand, CreatePayoutResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly locks: LedgerLocks,
    private readonly cache: AggregateCache,
    private readonly groups: GroupCommit,
    private readonly links: ClaimLinkTokens,
  ) {}

  async execute({ input }: CreatePayoutCommand): Promise<CreatePayoutResult> {
    const payoutId = input.payoutId ?? newPayoutId();
    const access = input.delivery === 'link' ? this.links.issue(payoutId) : newHandoffToken(payoutId);
    const ledgerId = ledgerStreamId(input.accountId, input.environment);
    const referenceId = merchantReferenceStreamId(
      input.accountId,
      input.environment,
      input.merchantReference,
    );
    const customerKey =
      input.delivery === 'link'
        ? `email:${(input.customerEmail ?? '').toLowerCase()}`
        : `customer:${input.customerId ?? ''}`;

    return this.locks.run(ledgerId, () =>
      retryOnConflict(
        async (tries) => {
          const now = this.clock.now(input.environment);
          // The first attempt is optimistic: it trusts the cached ledger and takes the reference to
          // be new, reading nothing. The append's expected versions check both; a conflict (another
          // process's payout, a reference already used) or a refusal (which the cached ledger may
          // have decided on stale funds or limits) sends every later attempt to the store.
          const optimistic = tries === 1;
          const [ledger, reference] = await Promise.all([
            this.cache.load(this.store, ledgerId, evolveLedger, initialLedgerState(), {
              trustCached: optimistic,
            }),
            optimistic
              ? { state: { claimedBy: null }, version: 0 }
              : loadAggregate(this.store, referenceId, evolveMerchantReference, { claimedBy: null }),
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
          const ledgerEvents = decideLedger(
            { type: 'ReservePayoutFunds', data: { payoutId, customerKey, amount: input.amount } },
            ledger.state,
            now,
          );
          const reservation = ledgerEvents.find(
            (e): e is PayoutFundsReserved => e.type === 'PayoutFundsReserved',
          );
          if (!reservation) throw new Error('ledger reserved nothing for a new payout');
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
          const result: CreatePayoutResult = {
            payout,
            accessToken: access.token,
            accessExpiresAt: accessEvent?.data.expiresAt ?? payout.payoutExpiresAt,
          };

          const withinAppend = input.withinAppend;
          const appends: StreamAppend[] = [
            {
              streamId: ledgerId,
              streamType: LEDGER_STREAM_TYPE,
              expectedVersion: expectedVersionOf(ledger.version),
              events: toNewEvents(ledgerEvents, LEDGER_EVENT_SCHEMA_VERSIONS),
            },
            {
              streamId: payoutStreamId(payoutId),
              streamType: PAYOUT_STREAM_TYPE,
              expectedVersion: 'no_stream',
              events: toNewEvents(payoutEvents, PAYOUT_EVENT_SCHEMA_VERSIONS),
            },
            {
              streamId: referenceId,
              streamType: MERCHANT_REFERENCE_STREAM_TYPE,
              expectedVersion: 'no_stream',
              events: toNewEvents(referenceEvents, {
                MerchantReferenceClaimed: MERCHANT_REFERENCE_EVENT_SCHEMA_VERSION,
              }),
            },
          ];
          const options: AppendWithReadModelsOptions = {
            maxBalanceLagEvents: BALANCE_MAX_LAG_EVENTS,
            ...(withinAppend ? { alsoInTransaction: (tx) => withinAppend(tx, result) } : {}),
          };
          // The optimistic first attempt commits in a group with other creates; a retry, which
          // follows a conflict or a refusal, goes alone so that it cannot hold a group back.
          const appended = optimistic
            ? await this.groups.append(appends, options)
            : await appendWithReadModels(this.store, appends, options);

          const ledgerVersion = appended.streams.find((s) => s.streamId === ledgerId)?.version;
          if (ledgerVersion !== undefined) {
            this.cache.remember(ledgerId, {
              state: ledgerEvents.reduce(evolveLedger, ledger.state),
              version: ledgerVersion,
            });
          }
          return result;
        },
        { firstAttemptOptimistic: true },
      ),
    );
  }
}
