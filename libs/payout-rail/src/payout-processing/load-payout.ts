import { evolvePayout, initialPayoutState, PayoutEvent, PayoutState, payoutStreamId } from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';

/** A payout's state folded from its stream, with the events, read fresh: never from memory. */
export async function loadPayout(
  store: EventStore,
  payoutId: string,
): Promise<{ state: PayoutState; events: PayoutEvent[] }> {
  const { events: recorded } = await store.readStream(payoutStreamId(payoutId));
  const events = recorded.map((r) => ({ type: r.type, data: r.data }) as PayoutEvent);
  return { state: events.reduce(evolvePayout, initialPayoutState()), events };
}
