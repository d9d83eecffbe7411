import {
  ledgerStreamId,
  Order,
  orderStreamId,
  parseStoredMoney,
  PaymentProceedsRecorded,
} from '@payouts/domain';
import { payoutUpdatedEventId } from '@payouts/webhooks';
import type { FoldedEvent } from './aggregate-folds';
import { ReportFinding } from './findings';

type Where = { position: string; streamId: string };
type AwaitedProceeds = Where & { ledger: string; gross: string };
type UnmatchedProceeds = Where & { gross: string };

/**
 * Invariant 4 (one `payout.updated` event id per paid payout) and the funds flow's pairing of
 * each paid order with its proceeds on its currency's ledger. An order's OrderPaid and its
 * PaymentProceedsRecorded commit in one append, so the maps of the unmatched stay small; the sets
 * of what was seen grow with paid payouts and orders (a few dozen bytes each), the price of
 * catching a duplicate anywhere in the log.
 */
export class PaidChecks {
  private readonly webhookEventIds = new Map<string, string>();
  private readonly ordersWithProceeds = new Set<number>();
  private readonly awaitingProceeds = new Map<number, AwaitedProceeds>();
  private readonly proceedsWithoutOrder = new Map<number, UnmatchedProceeds>();

  constructor(private readonly report: ReportFinding) {}

  /** A PayoutPaid that its payout's fold accepted (so at most one per payout stream). */
  payoutPaid(payoutId: string, event: FoldedEvent): void {
    // The dispatcher derives the id from the payout id alone (libs/webhooks): it is the same on
    // every delivery, and two payouts share one only if they share a payout id.
    const eventId = payoutUpdatedEventId(payoutId);
    const other = this.webhookEventIds.get(eventId);
    if (other !== undefined) {
      this.report({
        kind: 'duplicate_webhook_event_id',
        position: event.position,
        streamId: event.streamId,
        detail: `payout.updated ${eventId} is also the event id of ${other}`,
      });
      return;
    }
    this.webhookEventIds.set(eventId, event.streamId);
  }

  /** An OrderPaid that its order's fold accepted; `order` is the order before it. */
  orderPaid(order: Order, event: FoldedEvent): void {
    const ledger = ledgerStreamId(order.accountId, order.environment, order.currency);
    const recorded = this.proceedsWithoutOrder.get(order.orderId);
    if (recorded === undefined) {
      this.awaitingProceeds.set(order.orderId, {
        position: event.position,
        streamId: event.streamId,
        ledger,
        gross: order.amount,
      });
      return;
    }
    this.proceedsWithoutOrder.delete(order.orderId);
    this.compare(order.orderId, { ledger, gross: order.amount }, { ...recorded, ledger: recorded.streamId });
  }

  /** A PaymentProceedsRecorded that its ledger's fold accepted. */
  proceedsRecorded(data: PaymentProceedsRecorded['data'], event: FoldedEvent): void {
    if (this.ordersWithProceeds.has(data.orderId)) {
      this.report({
        kind: 'duplicate_proceeds',
        position: event.position,
        streamId: event.streamId,
        detail: `order ${data.orderId}'s proceeds are recorded a second time`,
      });
      return;
    }
    this.ordersWithProceeds.add(data.orderId);
    const paid = this.awaitingProceeds.get(data.orderId);
    const here = {
      position: event.position,
      streamId: event.streamId,
      ledger: event.streamId,
      gross: data.gross,
    };
    if (paid === undefined) {
      this.proceedsWithoutOrder.set(data.orderId, here);
      return;
    }
    this.awaitingProceeds.delete(data.orderId);
    this.compare(data.orderId, paid, here);
  }

  /**
   * The orders and proceeds that never met. `leftUnchecked` answers, for the stream that would hold
   * the other half (the order's ledger, the proceeds' order), whether it has events verify did not
   * check; if it does, the pair is counted there as a consequence instead of reported (fold-pass.ts).
   */
  finish(leftUnchecked: (streamId: string) => boolean): void {
    for (const [orderId, paid] of this.awaitingProceeds) {
      if (leftUnchecked(paid.ledger)) continue;
      this.report({
        kind: 'paid_order_without_proceeds',
        position: paid.position,
        streamId: paid.streamId,
        detail: `order ${orderId} is paid but ${paid.ledger} never recorded its proceeds`,
      });
    }
    for (const [orderId, proceeds] of this.proceedsWithoutOrder) {
      if (leftUnchecked(orderStreamId(orderId))) continue;
      this.report({
        kind: 'proceeds_without_paid_order',
        position: proceeds.position,
        streamId: proceeds.streamId,
        detail: `proceeds of order ${orderId} are recorded but the order was never paid`,
      });
    }
  }

  /** The proceeds belong on the order's own currency ledger, for the order's amount. */
  private compare(
    orderId: number,
    paid: { ledger: string; gross: string },
    proceeds: Where & { ledger: string; gross: string },
  ): void {
    if (paid.ledger !== proceeds.ledger) {
      this.report({
        kind: 'proceeds_mismatch',
        position: proceeds.position,
        streamId: proceeds.streamId,
        detail: `order ${orderId}'s proceeds are on ${proceeds.ledger}, not on its ledger ${paid.ledger}`,
      });
    } else if (!sameMoney(paid.gross, proceeds.gross)) {
      this.report({
        kind: 'proceeds_mismatch',
        position: proceeds.position,
        streamId: proceeds.streamId,
        detail: `order ${orderId}'s proceeds gross ${proceeds.gross} differs from the order's amount ${paid.gross}`,
      });
    }
  }
}

function sameMoney(a: string, b: string): boolean {
  try {
    return parseStoredMoney(a).eq(parseStoredMoney(b));
  } catch {
    return false;
  }
}
