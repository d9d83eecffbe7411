import { Environment, LEDGER_STREAM_TYPE, ledgerOwnerFromStreamId } from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';

const LEDGERS_PER_PAGE = 500;

/**
 * Every ledger of the environment, whatever its currency: the event store's streams of type
 * 'ledger', a page at a time in stream id order.
 */
export async function* environmentLedgers(
  store: EventStore,
  environment: Environment,
): AsyncGenerator<string> {
  let after: string | undefined;
  for (;;) {
    const page = await store.streamIds(LEDGER_STREAM_TYPE, { after, limit: LEDGERS_PER_PAGE });
    for (const streamId of page) {
      if (ledgerOwnerFromStreamId(streamId)?.environment === environment) yield streamId;
    }
    if (page.length < LEDGERS_PER_PAGE) return;
    after = page[page.length - 1];
  }
}
