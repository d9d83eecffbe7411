import {
  evolveFloat,
  evolveLedger,
  evolveOrder,
  evolvePayout,
  FLOAT_EVENT_SCHEMA_VERSIONS,
  FLOAT_STREAM_TYPE,
  FloatEvent,
  FloatState,
  initialOrderState,
  initialPayoutState,
  isFinalPayout,
  LEDGER_STREAM_TYPE,
  LedgerState,
  ledgerOwnerFromStreamId,
  MERCHANT_REFERENCE_EVENT_SCHEMA_VERSION,
  MERCHANT_REFERENCE_STREAM_TYPE,
  ORDER_EVENT_SCHEMA_VERSIONS,
  ORDER_STREAM_TYPE,
  OrderEvent,
  OrderState,
  orderStreamId,
  PAYOUT_EVENT_SCHEMA_VERSIONS,
  PAYOUT_STREAM_TYPE,
  PayoutEvent,
  PayoutState,
  payoutStreamId,
  PRICING_EVENT_SCHEMA_VERSIONS,
  PRICING_STREAM_TYPE,
  upcastLedgerEvent,
} from '@payouts/domain';
import type { FoldedEvent } from './verify-feed';
import { FindingKind, ledgerRefusalKind, messageOf, ReportFinding } from './findings';
import { FloatTally } from './float-tally';
import { LedgerTally } from './ledger-tally';
import { PaidChecks } from './paid-checks';

/** A payout or order that reached a final status: the deciders append nothing after it, so its state is not kept. */
type Closed = { readonly closed: string };

/**
 * One Closed per final status, shared by every stream closed with it: most of a log's payouts and
 * orders are closed, and an object each was about 5 MB of the heap at 1M events.
 */
const CLOSED = new Map<string, Closed>();

function closedWith(status: string): Closed {
  let closed = CLOSED.get(status);
  if (closed === undefined) {
    closed = Object.freeze({ closed: status });
    CLOSED.set(status, closed);
  }
  return closed;
}

/**
 * Folds every stream through the domain's own evolve functions, which throw on an event the
 * decider could not have produced and (ledger, float) on broken conservation or a negative
 * balance after any event. A throw is a finding at that event; the event is left out and the fold
 * goes on with the state before it. Ledgers and floats are few and kept whole; a payout or order
 * is kept while open and shrinks to its final status once closed.
 *
 * A ledger is folded by LedgerTally (the same arithmetic in cents, several times cheaper) for as
 * long as it can prove the domain accepts each event; at the first event it cannot, the ledger
 * goes to evolveLedger for good, so every ledger finding is the domain's own refusal. A float is
 * folded the same way by FloatTally, then evolveFloat.
 */
export class AggregateFolds {
  private readonly ledgers = new Map<string, LedgerTally | LedgerState>();
  private readonly floats = new Map<string, FloatTally | FloatState>();
  private readonly payouts = new Map<string, PayoutState | Closed>();
  private readonly orders = new Map<string, OrderState | Closed>();
  private readonly uncheckedTypes = new Set<string>();

  constructor(
    private readonly report: ReportFinding,
    private readonly paid: PaidChecks,
  ) {}

  /** One event, in its stream's version order. */
  apply(event: FoldedEvent): void {
    switch (event.streamType) {
      case LEDGER_STREAM_TYPE:
        return this.ledger(event);
      case FLOAT_STREAM_TYPE:
        return this.float(event);
      case PAYOUT_STREAM_TYPE:
        return this.payout(event);
      case ORDER_STREAM_TYPE:
        return this.order(event);
      case MERCHANT_REFERENCE_STREAM_TYPE:
        return this.merchantReference(event);
      case PRICING_STREAM_TYPE:
        // The pricing in force is the last one set; any sequence is legal. Only its schema is checked.
        this.known(event, PRICING_EVENT_SCHEMA_VERSIONS);
        return;
      default:
        if (this.uncheckedTypes.has(event.streamType)) return;
        this.uncheckedTypes.add(event.streamType);
        this.finding('unchecked_stream_type', event, `this build cannot check ${event.streamType} streams`);
    }
  }

  private ledger(event: FoldedEvent): void {
    if (ledgerOwnerFromStreamId(event.streamId) === null) {
      this.finding('stream_mismatch', event, 'not a ledger stream id');
      return;
    }
    const kept = this.ledgers.get(event.streamId) ?? new LedgerTally();
    try {
      const ledgerEvent = upcastLedgerEvent({
        type: event.eventType,
        schemaVersion: event.schemaVersion,
        data: event.data,
      });
      if (kept instanceof LedgerTally && kept.tryApply(ledgerEvent)) {
        this.ledgers.set(event.streamId, kept);
      } else {
        // The tally could not vouch for this event: the domain decides, and keeps the ledger from now on.
        const before = kept instanceof LedgerTally ? kept.toDomainState() : kept;
        this.ledgers.set(event.streamId, before);
        this.ledgers.set(event.streamId, evolveLedger(before, ledgerEvent));
      }
      if (ledgerEvent.type === 'PaymentProceedsRecorded') this.paid.proceedsRecorded(ledgerEvent.data, event);
    } catch (error) {
      this.finding(ledgerRefusalKind(error), event, messageOf(error));
    }
  }

  private float(event: FoldedEvent): void {
    if (!this.known(event, FLOAT_EVENT_SCHEMA_VERSIONS)) return;
    const kept = this.floats.get(event.streamId) ?? new FloatTally();
    const floatEvent = asEvent<FloatEvent>(event);
    if (kept instanceof FloatTally && kept.tryApply(floatEvent)) {
      this.floats.set(event.streamId, kept);
      return;
    }
    // The tally could not vouch for this event: the domain decides, and keeps the float from now on.
    const before = kept instanceof FloatTally ? kept.toDomainState() : kept;
    this.floats.set(event.streamId, before);
    try {
      this.floats.set(event.streamId, evolveFloat(before, floatEvent));
    } catch (error) {
      const message = messageOf(error);
      this.finding(
        /invariant broken/.test(message) ? 'float_invariant' : 'illegal_transition',
        event,
        message,
      );
    }
  }

  private payout(event: FoldedEvent): void {
    if (!this.known(event, PAYOUT_EVENT_SCHEMA_VERSIONS)) return;
    const payoutEvent = asEvent<PayoutEvent>(event);
    if (payoutStreamId(String(payoutEvent.data?.payoutId)) !== event.streamId) {
      this.finding('stream_mismatch', event, `names payout ${String(payoutEvent.data?.payoutId)}`);
      return;
    }
    const before = this.payouts.get(event.streamId) ?? initialPayoutState();
    if ('closed' in before) {
      this.finding(
        'illegal_transition',
        event,
        `Cannot apply ${event.eventType}: the payout is ${before.closed}`,
      );
      return;
    }
    let after: PayoutState;
    try {
      after = evolvePayout(before, payoutEvent);
    } catch (error) {
      this.finding('illegal_transition', event, messageOf(error));
      return;
    }
    if (payoutEvent.type === 'PayoutPaid') this.paid.payoutPaid(payoutEvent.data.payoutId, event);
    this.payouts.set(
      event.streamId,
      after.status !== 'none' && isFinalPayout(after) ? closedWith(after.status) : after,
    );
  }

  private order(event: FoldedEvent): void {
    if (!this.known(event, ORDER_EVENT_SCHEMA_VERSIONS)) return;
    const orderEvent = asEvent<OrderEvent>(event);
    const orderId = Number(orderEvent.data?.orderId);
    if (!Number.isSafeInteger(orderId) || orderStreamId(orderId) !== event.streamId) {
      this.finding('stream_mismatch', event, `names order ${String(orderEvent.data?.orderId)}`);
      return;
    }
    const before = this.orders.get(event.streamId) ?? initialOrderState();
    if ('closed' in before) {
      this.finding(
        'illegal_transition',
        event,
        `Cannot apply ${event.eventType}: the order is ${before.closed}`,
      );
      return;
    }
    let after: OrderState;
    try {
      after = evolveOrder(before, orderEvent);
    } catch (error) {
      this.finding('illegal_transition', event, messageOf(error));
      return;
    }
    if (orderEvent.type === 'OrderPaid' && before.status === 'PENDING') this.paid.orderPaid(before, event);
    // Only a pending order accepts another event (evolveOrder), so a closed one keeps its status alone.
    this.orders.set(event.streamId, after.status === 'PENDING' ? after : closedWith(after.status));
  }

  /** A merchant reference is claimed once, forever: its stream has exactly one event. */
  private merchantReference(event: FoldedEvent): void {
    if (
      event.eventType !== 'MerchantReferenceClaimed' ||
      event.schemaVersion !== MERCHANT_REFERENCE_EVENT_SCHEMA_VERSION
    ) {
      this.finding('unknown_event', event, `${event.eventType} schema ${event.schemaVersion}`);
    } else if (event.streamVersion !== 1) {
      this.finding('illegal_transition', event, 'the merchant reference was already claimed');
    }
  }

  /** Whether this build knows the event's type and schema version for its stream type. */
  private known(event: FoldedEvent, versions: Record<string, number>): boolean {
    const current = Object.hasOwn(versions, event.eventType) ? versions[event.eventType] : undefined;
    if (current === event.schemaVersion) return true;
    this.finding(
      'unknown_event',
      event,
      current === undefined
        ? `${event.eventType} is not a ${event.streamType} event`
        : `${event.eventType} has schema version ${event.schemaVersion}; this build reads ${current}`,
    );
    return false;
  }

  private finding(kind: FindingKind, event: FoldedEvent, detail: string): void {
    this.report({ kind, position: event.position, streamId: event.streamId, detail });
  }
}

/** The stored row as the domain's event shape (its type and schema were checked by `known`). */
function asEvent<E extends { type: string; data: unknown }>(
  event: FoldedEvent,
): E & { data: Record<string, unknown> } {
  return { type: event.eventType, data: event.data } as E & { data: Record<string, unknown> };
}
