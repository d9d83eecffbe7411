import type { SqlQueryable } from '@payouts/database';
import { ledgerStreamId, orderStreamId, payoutStreamId } from '@payouts/domain';
import type { EventStore, RecordedEvent } from '@payouts/event-store';
import { payoutUpdatedEventId } from '@payouts/webhooks';
import { parseFeedId } from './feed-event-ids';
import type { FeedItem, FeedOwner } from './feed-event';
import type { MerchantFeedItems } from './merchant-feed-items';

/** Where a cursor stands: after feed event `index` of this stored event. */
export interface FeedCursor {
  event: RecordedEvent;
  index: number;
  /** The stored event's feed events after the cursor's own (a ledger event's later ones). */
  rest: FeedItem[];
}

/**
 * Finds the stored event a feed id names, through the event store port: the id names its stream
 * and version, except a paid payout's (its webhook's id, a digest of the payout id), found among
 * the owner's paid payouts. The id counts only if the owner's own feed gives an event of that id
 * there, so another account's ids, and made-up ones, name nothing.
 */
export class FeedCursors {
  constructor(
    private readonly store: EventStore,
    private readonly db: SqlQueryable,
    private readonly items: MerchantFeedItems,
  ) {}

  async resolve(owner: FeedOwner, id: string): Promise<FeedCursor | null> {
    const event = await this.storedEvent(owner, id);
    if (event === null) return null;
    const items = await this.items.of(owner, [event]);
    const position = items.findIndex((item) => item.event.id === id);
    if (position < 0) return null;
    return { event, index: items[position]!.index, rest: items.slice(position + 1) };
  }

  private async storedEvent(owner: FeedOwner, id: string): Promise<RecordedEvent | null> {
    const ref = parseFeedId(id);
    if (ref === null) return null;
    switch (ref.kind) {
      case 'payout':
        return this.eventAt(payoutStreamId(ref.payoutId), ref.version);
      case 'order':
        return this.eventAt(orderStreamId(ref.orderId), ref.version);
      case 'ledger':
        return this.eventAt(ledgerStreamId(ref.accountId, ref.environment, ref.currency), ref.version);
      case 'paid-payout':
        return this.paidEvent(owner, ref.eventId);
    }
  }

  private async eventAt(streamId: string, version: number): Promise<RecordedEvent | null> {
    const { events } = await this.store.readStream(streamId, { fromVersion: version, toVersion: version });
    return events[0] ?? null;
  }

  /**
   * The PayoutPaid event behind a paid payout's id: the id is a one-way digest of the payout id,
   * so the owner's paid payouts are each digested once to find it (payoutUpdatedEventId, the one
   * derivation). Costs one digest per paid payout of the owner; a cursor is resolved once a page.
   */
  private async paidEvent(owner: FeedOwner, eventId: string): Promise<RecordedEvent | null> {
    const paid = await this.db.query<{ payout_id: string }>(
      `SELECT payout_id FROM payout_list WHERE account_id = $1 AND environment = $2 AND status = 'paid'`,
      [owner.accountId, owner.environment],
    );
    const payoutId = paid.rows.find((row) => payoutUpdatedEventId(row.payout_id) === eventId)?.payout_id;
    if (payoutId === undefined) return null;
    const { events } = await this.store.readStream(payoutStreamId(payoutId));
    return events.find((event) => event.type === 'PayoutPaid') ?? null;
  }
}
