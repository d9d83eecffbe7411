import { PAYOUT_AGGREGATE, PayoutEvent, payoutStreamId } from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import type { TimelineEntry } from '@payouts/web';

/** Each payout event in words: what a merchant reads in the payout's history. */
function describe(event: PayoutEvent): { title: string; at: string } {
  switch (event.type) {
    case 'PayoutCreated':
      return {
        title: `Payout created ${event.data.source === 'dashboard' ? 'in the dashboard' : 'through the API'}: ${event.data.totalReserved} ${event.data.currency} reserved (amount plus fee)`,
        at: event.data.createdAt,
      };
    case 'ClaimLinkIssued':
      return event.data.rotated
        ? { title: 'Claim link rotated: the earlier link stopped working', at: event.data.issuedAt }
        : { title: 'Claim link issued', at: event.data.issuedAt };
    case 'RedirectSessionStarted':
      return { title: 'Redirect session started', at: event.data.startedAt };
    case 'RedirectHandoffConsumed':
      return { title: 'The recipient arrived through the redirect', at: event.data.consumedAt };
    case 'PayoutConfirmed':
      return {
        title: `The recipient confirmed, choosing ${event.data.selectedMethod}`,
        at: event.data.acceptedAt,
      };
    case 'PayoutAwaitingFloat':
      return { title: 'Queued until the payout float is topped up; sent automatically', at: event.data.at };
    case 'PayoutLeftFloatQueue':
      return { title: 'Left the queue: being sent', at: event.data.at };
    case 'PayoutReviewRequired':
      return { title: 'Held for review', at: event.data.at };
    case 'PayoutReviewApproved':
      return { title: 'Review approved: being sent', at: event.data.at };
    case 'PayoutPaid':
      return { title: `Paid, receipt ${event.data.receiptReference}`, at: event.data.paidAt };
    case 'PayoutCancelled':
      return { title: 'Cancelled: amount and fee returned to the balance', at: event.data.cancelledAt };
    case 'PayoutExpired':
      return { title: 'Expired unclaimed: amount and fee returned to the balance', at: event.data.expiredAt };
    case 'PayoutFailed':
      return { title: 'Failed: amount and fee returned to the balance', at: event.data.failedAt };
  }
}

/**
 * The payout's history, oldest first, read from its own stream (`payout-<payout_id>`) through the
 * event store port and the domain's upcaster, as every reader of a payout's events does. The time
 * is the event's own (the environment's clock, as the payout's fields), not the store's.
 */
export async function payoutTimeline(store: EventStore, payoutId: string): Promise<TimelineEntry[]> {
  const { events } = await store.readStream(payoutStreamId(payoutId));
  return events.map((recorded) => {
    const { title, at } = describe(PAYOUT_AGGREGATE.upcast(recorded));
    return { id: recorded.eventId, at, title };
  });
}
