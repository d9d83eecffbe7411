import type { AppConfig } from '@payouts/config';
import {
  CreateOrder,
  decideOrder,
  evolveOrder,
  initialOrderState,
  ledgerStreamId,
  ORDER_EVENT_SCHEMA_VERSIONS,
  ORDER_STREAM_TYPE,
  OrderCommand,
  OrderDeclineReason,
  OrderInstrument,
  OrderState,
  orderStreamId,
  paymentCharges,
} from '@payouts/domain';
import { appendTo } from '@payouts/write-side';
import { CheckoutPageTokens } from '@payouts/checkout';
import { FundsCommands } from './funds-commands';
import { CommittedPart, MemoryStreams } from './memory-streams';

export type OrderInput = Omit<
  CreateOrder['data'],
  'pageTokenHash' | 'ttlMs' | 'minAmount' | 'maxAmount' | 'cardRegions'
>;

/** The acquirer's answer to one attempt (as the simulated acquirer gives it). */
export type Attempt =
  | { approved: true; instrument: OrderInstrument }
  | { approved: false; reason: OrderDeclineReason; instrument: OrderInstrument };

/**
 * Checkout orders as libs/checkout's handlers append them: Create Order (the order's stream, its
 * page token derived from the id, the deployment's settings), Pay Order (a declined attempt on the
 * order alone; a paid one with its proceeds on its currency's ledger, charged by the account's
 * pricing, in one append) and the worker's Expire Order.
 */
export class OrderCommands {
  constructor(
    private readonly streams: MemoryStreams,
    private readonly funds: FundsCommands,
    private readonly pages: CheckoutPageTokens,
    private readonly checkout: AppConfig['checkout'],
  ) {}

  create(input: OrderInput, now: Date): void {
    const { orderTtlMs, minAmount, maxAmount, cardRegions } = this.checkout;
    this.onOrder(
      input.orderId,
      {
        type: 'CreateOrder',
        data: {
          ...input,
          pageTokenHash: this.pages.tokenOf(input.orderId).tokenHash,
          ttlMs: orderTtlMs,
          minAmount,
          maxAmount,
          cardRegions,
        },
      },
      now,
    );
  }

  /** One attempt: when it paid the order, the ledger its proceeds went to and when they clear. */
  pay(orderId: number, attempt: Attempt, now: Date): { ledgerId: string; availableOn: string } | null {
    const order = this.load(orderId);
    if (order.state.status === 'none') throw new Error(`no order ${orderId}`);
    const part = this.orderPart(
      orderId,
      attempt.approved
        ? { type: 'MarkOrderPaid', data: { orderId, instrument: attempt.instrument } }
        : {
            type: 'RecordDeclinedAttempt',
            data: { orderId, reason: attempt.reason, instrument: attempt.instrument },
          },
      now,
    );
    const after = part.after as OrderState;
    if (after.status !== 'SUCCESS') {
      this.streams.commit([part]);
      return null;
    }
    const { accountId, environment, currency, method, amount, paidAt } = after;
    const pricing = this.funds.pricing(accountId, environment);
    const charges = paymentCharges(pricing, method, amount, new Date(paidAt));
    const ledgerId = ledgerStreamId(accountId, environment, currency);
    const ledger = this.funds.ledgerPart(
      ledgerId,
      { type: 'RecordPaymentProceeds', data: { orderId, method, paidAt, ...charges } },
      now,
    );
    if (ledger.append.events.length !== 1) throw new Error(`order ${orderId} has proceeds already`);
    this.streams.commit([part, ledger]);
    return { ledgerId, availableOn: charges.availableOn };
  }

  expire(orderId: number, now: Date): void {
    this.onOrder(orderId, { type: 'ExpireOrder', data: { orderId } }, now);
  }

  private onOrder(orderId: number, command: OrderCommand, now: Date): void {
    this.streams.commit([this.orderPart(orderId, command, now)]);
  }

  private orderPart(orderId: number, command: OrderCommand, now: Date): CommittedPart {
    const order = this.load(orderId);
    const events = decideOrder(command, order.state, now);
    const after = events.reduce(evolveOrder, order.state);
    return {
      append: appendTo(
        orderStreamId(orderId),
        ORDER_STREAM_TYPE,
        order.version,
        events,
        ORDER_EVENT_SCHEMA_VERSIONS,
      ),
      after,
      closed: after.status === 'SUCCESS' || after.status === 'EXPIRED',
    };
  }

  private load(orderId: number) {
    return this.streams.load<OrderState>(orderStreamId(orderId), initialOrderState);
  }
}
