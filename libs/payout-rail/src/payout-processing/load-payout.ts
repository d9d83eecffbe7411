import { PAYOUT_AGGREGATE, PayoutEvent, PayoutState, payoutStreamId } from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';

/**
 * A payout's state folded from its stream, with its events (the worker looks for an operator's
 * approval among them), read fresh: never from memory. Each event is read through the domain's
 * upcaster, as everywhere a payout is loaded.
 */
export async function loadPayout(
  store: EventStore,
  payoutId: string,
): Promise<{ state: PayoutState; events: PayoutEvent[] }> {
  const { events: recorded } = await store.readStream(payoutStreamId(payoutId));
  const events = recorded.map(PAYOUT_AGGREGATE.upcast);
  return { state: events.reduce(PAYOUT_AGGREGATE.evolve, PAYOUT_AGGREGATE.initial()), events };
}
