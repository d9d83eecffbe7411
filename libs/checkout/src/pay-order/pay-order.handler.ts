import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { Clock } from '@payouts/clock';
import type { PlannedRow } from '@payouts/write-side';
import {
  decideLedger,
  decideOrder,
  DomainError,
  evolveLedger,
  evolveOrder,
  LEDGER_AGGREGATE,
  LEDGER_EVENT_SCHEMA_VERSIONS,
  LEDGER_STREAM_TYPE,
  ledgerStreamId,
  ORDER_AGGREGATE,
  ORDER_EVENT_SCHEMA_VERSIONS,
  ORDER_STREAM_TYPE,
  OrderIn,
  orderStreamId,
  paymentCharges,
} from '@payouts/domain';
import type { EventStore, StreamAppend } from '@payouts/event-store';
import { StreamVersionConflictError } from '@payouts/event-store';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import { loadPricing, proceedsPendingRow } from '@payouts/settlements';
import {
  AggregateCache,
  appendTo,
  CachedStateAfter,
  Decides,
  Decision,
  loadAggregate,
  WritePath,
} from '@payouts/write-side';
import { ACQUIRER, authorizationKey } from '../acquirer/acquirer.port';
import type { Acquirer, AuthorizationOutcome } from '../acquirer/acquirer.port';
import { OrderPaymentLock } from './order-payment-lock';
import { PayOrderCommand, PayOrderResult } from './pay-order.command';

/**
 * One attempt to pay an order: the acquirer answers, and the order records a declined attempt
 * (it stays PENDING, the payer may try again) or becomes SUCCESS; a paid order's proceeds (gross,
 * fee from the account's pricing, net pending until its clearing day) go onto its currency's
 * ledger in the same plan, both appends at their expected versions.
 *
 * One attempt at a time per order (OrderPaymentLock, across processes too): a submission made
 * while another is being authorized waits for it, and then finds the order paid (refused as not
 * payable: the page says it is paid) or tries its own attempt after a decline. The acquirer is
 * asked only for an order that can still be paid, once per command, under the attempt's
 * idempotency key; its answer is kept for the command, so a version conflict (a payout or
 * settlement on the ledger meanwhile) decides again on fresh state with the same answer.
 */
@CommandHandler(PayOrderCommand)
export class PayOrderHandler
  implements ICommandHandler<PayOrderCommand, PayOrderResult>, Decides<PayOrderCommand, PayOrderResult>
{
  /** The acquirer's answer per command, kept only while the command is decided (weakly held). */
  private readonly outcomes = new WeakMap<PayOrderCommand, AuthorizationOutcome>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ACQUIRER) private readonly acquirer: Acquirer,
    private readonly cache: AggregateCache,
    private readonly writes: WritePath,
    private readonly lock: OrderPaymentLock,
  ) {}

  execute(command: PayOrderCommand): Promise<PayOrderResult> {
    return this.lock.run(command.orderId, () => this.writes.execute(command, this));
  }

  async decide(command: PayOrderCommand): Promise<Decision<PayOrderResult>> {
    const { orderId, instrument } = command;
    const streamId = orderStreamId(orderId);
    const order = await loadAggregate(this.store, streamId, ORDER_AGGREGATE);
    if (order.state.status === 'none') throw new DomainError('not_found', 'no such order');
    const now = this.clock.now(order.state.environment);
    const state = order.state;
    if (state.status !== 'PENDING' || now.getTime() >= Date.parse(state.expiresAt)) {
      throw new DomainError('order_not_payable', `order ${orderId} is ${state.status} and cannot be paid`);
    }
    let outcome = this.outcomes.get(command);
    if (outcome === undefined) {
      outcome = await this.acquirer.authorize({
        idempotencyKey: authorizationKey(orderId, state.attempts + 1),
        orderId,
        environment: state.environment,
        method: state.method,
        amount: state.amount,
        currency: state.currency,
        instrument,
      });
      this.outcomes.set(command, outcome);
    }
    const events = decideOrder(
      outcome.approved
        ? { type: 'MarkOrderPaid', data: { orderId, instrument: outcome.instrument } }
        : {
            type: 'RecordDeclinedAttempt',
            data: { orderId, reason: outcome.reason, instrument: outcome.instrument },
          },
      state,
      now,
    );
    const after = events.reduce(evolveOrder, state);
    const orderAppend = appendTo(
      streamId,
      ORDER_STREAM_TYPE,
      order.version,
      events,
      ORDER_EVENT_SCHEMA_VERSIONS,
    );
    if (outcome.approved && after.status === 'SUCCESS') {
      const proceeds = await this.proceeds(after, order.version, now);
      return {
        plan: { appends: [orderAppend, proceeds.append], rows: proceeds.rows },
        result: { paid: true, order: after },
        cached: [proceeds.cached],
      };
    }
    if (!outcome.approved && after.status === 'PENDING') {
      return {
        plan: { appends: [orderAppend], rows: [] },
        result: { paid: false, reason: outcome.reason, order: after },
        cached: [],
      };
    }
    throw new Error(`order ${orderId} did not move as its attempt said`);
  }

  /**
   * The paid order's proceeds on its ledger: the charges from the account's pricing in force (the
   * defaults when none was set), paid at the OrderPaid's time, and the ledger's maturing row.
   */
  private async proceeds(
    order: OrderIn<'SUCCESS'>,
    orderVersion: number,
    now: Date,
  ): Promise<{ append: StreamAppend; rows: PlannedRow[]; cached: CachedStateAfter }> {
    const { orderId, accountId, environment, currency, method, amount, paidAt } = order;
    const ledgerId = ledgerStreamId(accountId, environment, currency);
    const ledger = await this.cache.load(this.store, ledgerId, LEDGER_AGGREGATE);
    const pricing = await loadPricing(this.store, accountId, environment);
    const charges = paymentCharges(pricing.state, method, amount, new Date(paidAt));
    const events = decideLedger(
      { type: 'RecordPaymentProceeds', data: { orderId, method, paidAt, ...charges } },
      ledger.state,
      now,
    );
    // The ledger already holds this order's proceeds: the order was read before the attempt that
    // paid it committed. A stale read, so decide again on fresh state (the order is then paid).
    if (events.length !== 1)
      throw new StreamVersionConflictError(orderStreamId(orderId), orderVersion, orderVersion);
    return {
      append: appendTo(ledgerId, LEDGER_STREAM_TYPE, ledger.version, events, LEDGER_EVENT_SCHEMA_VERSIONS),
      rows: [proceedsPendingRow(ledgerId, environment, charges.availableOn)],
      cached: {
        streamId: ledgerId,
        state: events.reduce(evolveLedger, ledger.state),
        version: ledger.version + events.length,
      },
    };
  }
}
