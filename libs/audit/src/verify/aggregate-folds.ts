import {
  Aggregate,
  FLOAT_AGGREGATE,
  FLOAT_STREAM_TYPE,
  FloatState,
  isFinalPayout,
  LEDGER_AGGREGATE,
  LEDGER_STREAM_TYPE,
  LedgerState,
  ledgerOwnerFromStreamId,
  MERCHANT_REFERENCE_AGGREGATE,
  MERCHANT_REFERENCE_STREAM_TYPE,
  ORDER_AGGREGATE,
  ORDER_STREAM_TYPE,
  OrderState,
  orderStreamId,
  PAYOUT_AGGREGATE,
  PAYOUT_STREAM_TYPE,
  PayoutState,
  payoutStreamId,
  PRICING_AGGREGATE,
  PRICING_STREAM_TYPE,
} from '@payouts/domain';
import type { AuditEvent } from '../feed/audit-feed';
import { FindingKind, messageOf, ReportFinding } from './findings';
import { PaidChecks } from './paid-checks';

/** The columns the folds read (the event id, metadata and time are the chain's alone). */
export type FoldedEvent = Omit<AuditEvent, 'eventId' | 'metadata' | 'recordedAt'>;

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
 * Folds every stream through its aggregate as the domain defines it (`Aggregate`: the upcast of a
 * stored event, then evolve), the same definitions the write side loads aggregates with. The
 * upcast refuses an event type or schema version this build does not know; evolve throws on an
 * event the decider could not have produced and, for ledgers and floats, on broken conservation or
 * a negative balance after any event (assertLedgerInvariants, assertFloatInvariants). A refusal is
 * a finding at that event; the event is left out and the fold goes on with the state before it.
 * Ledgers and floats are few and kept whole; a payout or order is kept while open and shrinks to
 * its final status once closed.
 */
export class AggregateFolds {
  private readonly ledgers = new Map<string, LedgerState>();
  private readonly floats = new Map<string, FloatState>();
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
        // The pricing in force is the last one set; any sequence is legal. Only the upcast can refuse.
        this.upcast(PRICING_AGGREGATE, event);
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
    const ledgerEvent = this.upcast(LEDGER_AGGREGATE, event);
    if (ledgerEvent === null) return;
    const before = this.ledgers.get(event.streamId) ?? LEDGER_AGGREGATE.initial();
    try {
      this.ledgers.set(event.streamId, LEDGER_AGGREGATE.evolve(before, ledgerEvent));
    } catch (error) {
      this.refused(event, error, 'ledger_invariant');
      return;
    }
    if (ledgerEvent.type === 'PaymentProceedsRecorded') this.paid.proceedsRecorded(ledgerEvent.data, event);
  }

  private float(event: FoldedEvent): void {
    const floatEvent = this.upcast(FLOAT_AGGREGATE, event);
    if (floatEvent === null) return;
    const before = this.floats.get(event.streamId) ?? FLOAT_AGGREGATE.initial();
    try {
      this.floats.set(event.streamId, FLOAT_AGGREGATE.evolve(before, floatEvent));
    } catch (error) {
      this.refused(event, error, 'float_invariant');
    }
  }

  private payout(event: FoldedEvent): void {
    const payoutEvent = this.upcast(PAYOUT_AGGREGATE, event);
    if (payoutEvent === null) return;
    const payoutId = fieldOf(payoutEvent.data, 'payoutId');
    if (payoutStreamId(String(payoutId)) !== event.streamId) {
      this.finding('stream_mismatch', event, `names payout ${String(payoutId)}`);
      return;
    }
    const before = this.payouts.get(event.streamId) ?? PAYOUT_AGGREGATE.initial();
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
      after = PAYOUT_AGGREGATE.evolve(before, payoutEvent);
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
    const orderEvent = this.upcast(ORDER_AGGREGATE, event);
    if (orderEvent === null) return;
    const orderId = Number(fieldOf(orderEvent.data, 'orderId'));
    if (!Number.isSafeInteger(orderId) || orderStreamId(orderId) !== event.streamId) {
      this.finding('stream_mismatch', event, `names order ${String(fieldOf(orderEvent.data, 'orderId'))}`);
      return;
    }
    const before = this.orders.get(event.streamId) ?? ORDER_AGGREGATE.initial();
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
      after = ORDER_AGGREGATE.evolve(before, orderEvent);
    } catch (error) {
      this.finding('illegal_transition', event, messageOf(error));
      return;
    }
    if (orderEvent.type === 'OrderPaid' && before.status === 'PENDING') this.paid.orderPaid(before, event);
    // Only a pending order accepts another event (evolveOrder), so a closed one keeps its status alone.
    this.orders.set(event.streamId, after.status === 'PENDING' ? after : closedWith(after.status));
  }

  /**
   * A merchant reference is claimed once, forever: its stream has exactly one event. Stricter than
   * the domain's evolve, which keeps the first claim: no decider appends a second.
   */
  private merchantReference(event: FoldedEvent): void {
    if (this.upcast(MERCHANT_REFERENCE_AGGREGATE, event) === null) return;
    if (event.streamVersion !== 1) {
      this.finding('illegal_transition', event, 'the merchant reference was already claimed');
    }
  }

  /** The stored event as the aggregate's event, or null (an `unknown_event` finding) if the upcast refuses it. */
  private upcast<Event extends { type: string }, State>(
    aggregate: Aggregate<Event, State>,
    event: FoldedEvent,
  ): Event | null {
    try {
      return aggregate.upcast({
        type: event.eventType,
        schemaVersion: event.schemaVersion,
        data: event.data,
      });
    } catch (error) {
      this.finding('unknown_event', event, messageOf(error));
      return null;
    }
  }

  /** A ledger or float event evolve refused: its invariants broken, or a transition no decider makes. */
  private refused(event: FoldedEvent, error: unknown, invariant: FindingKind): void {
    const message = messageOf(error);
    this.finding(/invariant broken/.test(message) ? invariant : 'illegal_transition', event, message);
  }

  private finding(kind: FindingKind, event: FoldedEvent, detail: string): void {
    this.report({ kind, position: event.position, streamId: event.streamId, detail });
  }
}

/**
 * A field of an event's data as stored: the upcast checks an event's type and schema version, not
 * its shape, and a tampered event may carry anything (or no object at all).
 */
function fieldOf(data: unknown, name: string): unknown {
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[name] : undefined;
}
