import {
  claimMerchantReference,
  CreatePayout,
  decidePayout,
  DomainError,
  evolvePayout,
  FloatCommand,
  initialPayoutState,
  isFinalPayout,
  LedgerCommand,
  ledgerStreamId,
  MERCHANT_REFERENCE_EVENT_SCHEMA_VERSION,
  MERCHANT_REFERENCE_STREAM_TYPE,
  Payout,
  PAYOUT_EVENT_SCHEMA_VERSIONS,
  PAYOUT_STREAM_TYPE,
  PayoutCommand,
  PayoutFundsReserved,
  PayoutState,
  payoutStreamId,
} from '@payouts/domain';
import { ClaimLinkTokens, merchantReferenceStreamId, newHandoffToken } from '@payouts/payouts';
import { appendTo } from '@payouts/write-side';
import { FundsCommands } from './funds-commands';
import { CommittedPart, MemoryStreams } from './memory-streams';

export type PayoutInput = Omit<CreatePayout['data'], 'fee' | 'access'>;

/** What one payout command moves besides the payout (libs/payouts PayoutTransitions' plan). */
export interface Transition {
  payout: PayoutCommand;
  ledger?: LedgerCommand;
  float?: FloatCommand;
}

/**
 * Payout commands as libs/payouts appends them: Create Payout (ledger reservation, the payout and
 * its merchant reference's claim in one append), a transition (the payout with the ledger and
 * float moves that go with it, PayoutTransitions), the worker's float reservation (the float,
 * and the payout leaving the float queue when it was queued), claim links and redirect sessions.
 */
export class PayoutCommands {
  constructor(
    private readonly streams: MemoryStreams,
    private readonly funds: FundsCommands,
    private readonly links: ClaimLinkTokens,
  ) {}

  create(input: PayoutInput, now: Date): Payout {
    const { payoutId, accountId, environment } = input;
    const ledgerId = ledgerStreamId(accountId, environment);
    const customerKey =
      input.delivery === 'link'
        ? `email:${(input.customerEmail ?? '').toLowerCase()}`
        : `customer:${input.customerId ?? ''}`;
    const ledger = this.funds.ledgerPart(
      ledgerId,
      { type: 'ReservePayoutFunds', data: { payoutId, customerKey, amount: input.amount } },
      now,
    );
    const reservation = ledger.append.events.find((e) => e.type === 'PayoutFundsReserved');
    if (!reservation) throw new Error('ledger reserved nothing for a new payout');
    const { fee } = reservation.data as PayoutFundsReserved['data'];
    const access = input.delivery === 'link' ? this.links.issue(payoutId) : newHandoffToken(payoutId);
    const events = decidePayout(
      {
        type: 'CreatePayout',
        data: { ...input, fee, access: { id: access.id, tokenHash: access.tokenHash } },
      },
      initialPayoutState(),
      now,
    );
    const payout = events.reduce(evolvePayout, initialPayoutState());
    if (payout.status !== 'awaiting_choice') throw new Error('a new payout must await the recipient');
    const referenceId = merchantReferenceStreamId(accountId, environment, input.merchantReference);
    const claimed = claimMerchantReference({ claimedBy: null }, { ...input, payoutId }, now);
    this.streams.commit([
      ledger,
      {
        append: appendTo(
          payoutStreamId(payoutId),
          PAYOUT_STREAM_TYPE,
          0,
          events,
          PAYOUT_EVENT_SCHEMA_VERSIONS,
        ),
        after: payout,
      },
      {
        append: appendTo(referenceId, MERCHANT_REFERENCE_STREAM_TYPE, 0, claimed, {
          MerchantReferenceClaimed: MERCHANT_REFERENCE_EVENT_SCHEMA_VERSION,
        }),
        after: { claimedBy: payoutId },
        closed: true,
      },
    ]);
    return payout;
  }

  /** PayoutTransitions.decide: a payout that ends takes its ledger reservation with it. */
  transition(payoutId: string, plan: (payout: Payout) => Transition, now: Date): PayoutState {
    const payout = this.load(payoutId);
    const transition = plan(payout.state);
    const payoutPart = this.payoutPart(payout, transition.payout, now);
    if (payoutPart.append.events.length === 0) return payout.state;
    const parts = [payoutPart];
    const { accountId, environment } = payout.state;
    const ends = payoutPart.closed === true;
    if (transition.ledger) {
      const ledger = this.funds.ledgerPart(ledgerStreamId(accountId, environment), transition.ledger, now);
      if (ends && ledger.append.events.length !== 1) {
        throw new Error(
          `payout ${payoutId} ends but its reservation moved ${ledger.append.events.length} times`,
        );
      }
      parts.push(ledger);
    } else if (ends) {
      throw new Error(`payout ${payoutId} would end without moving its ledger reservation`);
    }
    if (transition.float) parts.push(this.funds.floatPart(environment, transition.float, now));
    this.streams.commit(parts);
    return payoutPart.after as PayoutState;
  }

  /** ReserveFloatHandler: refused with float_insufficient when the float cannot cover the amount. */
  reserveFloat(payoutId: string, now: Date): void {
    const payout = this.load(payoutId);
    const { environment, amount } = payout.state;
    const leave = this.payoutPart(payout, { type: 'LeaveFloatQueue', data: {} }, now);
    const float = this.funds.floatPart(
      environment,
      { type: 'ReserveFloat', data: { environment, payoutId, amount } },
      now,
    );
    this.streams.commit([float, leave]);
  }

  /** Rotate Claim Link (link delivery). */
  rotateLink(payoutId: string, now: Date): void {
    const { id, tokenHash } = this.links.issue(payoutId);
    this.onPayout(payoutId, { type: 'IssueClaimLink', data: { linkId: id, tokenHash, rotate: true } }, now);
  }

  /** The merchant's new handoff for a redirect payout, then the recipient using it. */
  handOff(payoutId: string, now: Date): void {
    const payout = this.load(payoutId).state;
    if (payout.delivery !== 'redirect') throw new Error(`${payoutId} is not a redirect payout`);
    const { id, tokenHash } = newHandoffToken(payoutId);
    const customerId = payout.customerId;
    this.onPayout(
      payoutId,
      { type: 'StartRedirectSession', data: { sessionId: id, tokenHash, customerId } },
      now,
    );
    this.onPayout(payoutId, { type: 'ConsumeRedirectHandoff', data: { sessionId: id } }, now);
  }

  private onPayout(payoutId: string, command: PayoutCommand, now: Date): void {
    this.streams.commit([this.payoutPart(this.load(payoutId), command, now)]);
  }

  private payoutPart(
    payout: { state: Payout; version: number },
    command: PayoutCommand,
    now: Date,
  ): CommittedPart {
    const events = decidePayout(command, payout.state, now);
    const after = events.reduce(evolvePayout, payout.state as PayoutState) as Payout;
    return {
      append: appendTo(
        payoutStreamId(payout.state.payoutId),
        PAYOUT_STREAM_TYPE,
        payout.version,
        events,
        PAYOUT_EVENT_SCHEMA_VERSIONS,
      ),
      after,
      closed: isFinalPayout(after),
    };
  }

  private load(payoutId: string): { state: Payout; version: number } {
    const loaded = this.streams.load<PayoutState>(payoutStreamId(payoutId), initialPayoutState);
    if (loaded.state.status === 'none') throw new DomainError('payout_not_found', 'no such payout');
    return { state: loaded.state, version: loaded.version };
  }
}
