import { orderViewOf } from '@payouts/checkout';
import type { SqlQueryable } from '@payouts/database';
import {
  foldStored,
  LEDGER_AGGREGATE,
  ledgerOwnerFromStreamId,
  ORDER_AGGREGATE,
  ORDER_STREAM_TYPE,
  PAYOUT_AGGREGATE,
  PAYOUT_STREAM_TYPE,
  payoutIdFromStreamId,
  LEDGER_STREAM_TYPE,
} from '@payouts/domain';
import type { Aggregate, LedgerEvent } from '@payouts/domain';
import type { EventStore, RecordedEvent } from '@payouts/event-store';
import {
  payoutMerchantViewOf,
  toBalanceTransactionView,
  toSettlementView,
  transactionsOf,
} from '@payouts/read-models';
import type { ReadModelClient, TransactionDraft } from '@payouts/read-models';
import { payoutUpdatedEventId } from '@payouts/webhooks';
import { ledgerFeedId, orderFeedId, payoutFeedId } from './feed-event-ids';
import type { FeedEventType, FeedItem, FeedOwner } from './feed-event';

const SETTLEMENT_EVENT_TYPES: Partial<Record<LedgerEvent['type'], FeedEventType>> = {
  SettlementStarted: 'settlement.created',
  SettlementPaid: 'settlement.paid',
  SettlementFailed: 'settlement.failed',
};
const SETTLEMENT_STATUS: Record<string, string> = {
  'settlement.created': 'in_transit',
  'settlement.paid': 'paid',
  'settlement.failed': 'failed',
};

/** A stored event's feed events before their `data` is filled in (it may need a read model row). */
interface PendingItem {
  index: number;
  id: string;
  type: FeedEventType;
  createdAt: string;
  data: () => object;
}

/**
 * The feed events of stored events, for one owner: which of the events are the owner's, what each
 * one means to a merchant (the domain's own fold decides a status change; the read model's own
 * `transactionsOf` decides the balance transactions), and the resource as its Get answered it.
 * Payouts and orders are folded from their streams up to the event (through the event store
 * port); a balance transaction's running balances and a settlement's fixed fields come from their
 * read model rows, whose changing fields (status and the like) are put back as they were then.
 */
export class MerchantFeedItems {
  constructor(
    private readonly store: EventStore,
    private readonly db: SqlQueryable,
    private readonly readModels: ReadModelClient,
  ) {}

  /** The owner's feed events of `events` (in feed order), in the same order. */
  async of(owner: FeedOwner, events: readonly RecordedEvent[]): Promise<FeedItem[]> {
    const [payouts, orders] = await Promise.all([
      this.ownedStreams(owner, events, PAYOUT_STREAM_TYPE),
      this.ownedStreams(owner, events, ORDER_STREAM_TYPE),
    ]);
    const streamEvents = await this.readOwnedStreams(events, new Set([...payouts, ...orders]));
    const rows = new RowCache();
    const pending: PendingItem[][] = [];
    const transactionIds: string[] = [];
    const settlementIds: string[] = [];
    for (const event of events) {
      if (payouts.has(event.streamId)) {
        pending.push(payoutItems(event, streamEvents.get(event.streamId)!));
      } else if (orders.has(event.streamId)) {
        pending.push(orderItems(event, streamEvents.get(event.streamId)!));
      } else if (event.streamType === LEDGER_STREAM_TYPE && isOwnLedger(owner, event.streamId)) {
        pending.push(ledgerItems(event, transactionIds, settlementIds, rows));
      } else {
        pending.push([]);
      }
    }
    await rows.load(this.readModels, transactionIds, settlementIds);
    return pending.flat().map((item) => ({
      index: item.index,
      event: { id: item.id, type: item.type, created_at: item.createdAt, data: item.data() },
    }));
  }

  /** The streams of this type among `events` that belong to the owner, by its read model's row. */
  private async ownedStreams(
    owner: FeedOwner,
    events: readonly RecordedEvent[],
    streamType: string,
  ): Promise<Set<string>> {
    const streams = [...new Set(events.filter((e) => e.streamType === streamType).map((e) => e.streamId))];
    if (streams.length === 0) return new Set();
    const sql =
      streamType === PAYOUT_STREAM_TYPE
        ? `SELECT 'payout-' || payout_id AS stream_id FROM payout_list
            WHERE payout_id = ANY($1::text[]) AND account_id = $2 AND environment = $3`
        : `SELECT 'order-' || order_id AS stream_id FROM checkout_orders
            WHERE order_id = ANY($1::bigint[]) AND account_id = $2 AND environment = $3`;
    const keys =
      streamType === PAYOUT_STREAM_TYPE
        ? streams.map(payoutIdFromStreamId)
        : streams.map((id) => id.slice('order-'.length));
    const owned = await this.db.query<{ stream_id: string }>(sql, [keys, owner.accountId, owner.environment]);
    return new Set(owned.rows.map((row) => row.stream_id));
  }

  /** Each owned stream from its first event up to the last of its events in `events`, in one read. */
  private async readOwnedStreams(
    events: readonly RecordedEvent[],
    owned: ReadonlySet<string>,
  ): Promise<Map<string, RecordedEvent[]>> {
    const upTo = new Map<string, number>();
    for (const event of events) {
      if (owned.has(event.streamId)) {
        upTo.set(event.streamId, Math.max(upTo.get(event.streamId) ?? 0, event.streamVersion));
      }
    }
    const byStream = new Map<string, RecordedEvent[]>([...upTo.keys()].map((id) => [id, []]));
    if (upTo.size === 0) return byStream;
    const ranges = [...upTo].map(([streamId, toVersion]) => ({ streamId, fromVersion: 1, toVersion }));
    for (const event of await this.store.readStreams(ranges)) byStream.get(event.streamId)!.push(event);
    return byStream;
  }
}

const isOwnLedger = (owner: FeedOwner, streamId: string): boolean => {
  const ledger = ledgerOwnerFromStreamId(streamId);
  return ledger !== null && ledger.accountId === owner.accountId && ledger.environment === owner.environment;
};

/** The state of a stream just before and just after its event of this version. */
function statesAround<E extends { type: string }, S>(
  aggregate: Aggregate<E, S>,
  stream: readonly RecordedEvent[],
  version: number,
): { before: S; after: S } {
  const before = foldStored(aggregate, stream.slice(0, version - 1));
  return { before, after: foldStored(aggregate, stream.slice(version - 1, version), before) };
}

const createdAt = (event: RecordedEvent): string => event.recordedAt.toISOString();

/** `payout.created` for its first event; `payout.updated` for each event the fold says changed the status. */
function payoutItems(event: RecordedEvent, stream: readonly RecordedEvent[]): PendingItem[] {
  const { before, after } = statesAround(PAYOUT_AGGREGATE, stream, event.streamVersion);
  if (after.status === 'none') return [];
  const data = () => payoutMerchantViewOf(after);
  if (before.status === 'none') {
    const id = payoutFeedId(after.payoutId, event.streamVersion);
    return [{ index: 0, id, type: 'payout.created', createdAt: createdAt(event), data }];
  }
  if (after.statusVersion === before.statusVersion) return [];
  const id =
    after.status === 'paid'
      ? payoutUpdatedEventId(after.payoutId)
      : payoutFeedId(after.payoutId, event.streamVersion);
  return [{ index: 0, id, type: 'payout.updated', createdAt: createdAt(event), data }];
}

/** `order.created`, then `order.paid` or `order.expired` when the fold says the status became one. */
function orderItems(event: RecordedEvent, stream: readonly RecordedEvent[]): PendingItem[] {
  const { before, after } = statesAround(ORDER_AGGREGATE, stream, event.streamVersion);
  if (after.status === 'none' || before.status === after.status) return [];
  const type: FeedEventType =
    before.status === 'none' ? 'order.created' : after.status === 'SUCCESS' ? 'order.paid' : 'order.expired';
  const id = orderFeedId(after.orderId, event.streamVersion);
  return [{ index: 0, id, type, createdAt: createdAt(event), data: () => orderViewOf(after) }];
}

/** A settlement's start, payment or failure first, then each balance transaction the event adds. */
function ledgerItems(
  event: RecordedEvent,
  transactionIds: string[],
  settlementIds: string[],
  rows: RowCache,
): PendingItem[] {
  const ledgerEvent = LEDGER_AGGREGATE.upcast(event);
  const ledger = ledgerOwnerFromStreamId(event.streamId)!;
  const items: PendingItem[] = [];
  const next = (type: FeedEventType, data: () => object) =>
    items.push({
      index: items.length,
      id: ledgerFeedId(ledger, event.streamVersion, items.length),
      type,
      createdAt: createdAt(event),
      data,
    });
  const settlementType = SETTLEMENT_EVENT_TYPES[ledgerEvent.type];
  if (settlementType !== undefined) {
    const settlementId = (ledgerEvent.data as { settlementId: string }).settlementId;
    settlementIds.push(settlementId);
    next(settlementType, () => rows.settlementAsOf(settlementId, settlementType, ledgerEvent));
  }
  for (const draft of transactionsOf(event.streamId, ledgerEvent, event.streamVersion)) {
    transactionIds.push(draft.id);
    next('balance.transaction', () => rows.transactionAsOf(draft));
  }
  return items;
}

/** The read model rows the ledger's feed events are made from, loaded once per call. */
class RowCache {
  private transactions = new Map<string, Parameters<typeof toBalanceTransactionView>[0]>();
  private settlements = new Map<string, Parameters<typeof toSettlementView>[0]>();

  async load(readModels: ReadModelClient, transactionIds: string[], settlementIds: string[]): Promise<void> {
    const [transactions, settlements] = await Promise.all([
      transactionIds.length === 0
        ? []
        : readModels.balanceTransaction.findMany({ where: { id: { in: transactionIds } } }),
      settlementIds.length === 0
        ? []
        : readModels.settlement.findMany({ where: { id: { in: settlementIds } } }),
    ]);
    this.transactions = new Map(transactions.map((row) => [row.id, row]));
    this.settlements = new Map(settlements.map((row) => [row.id, row]));
  }

  /** The row as it was written: its status and settlement as the event made them, not as they are now. */
  transactionAsOf(draft: TransactionDraft): object {
    const row = this.transactions.get(draft.id);
    if (row === undefined) throw new Error(`balance transaction ${draft.id} is not in the read model yet`);
    return {
      ...toBalanceTransactionView(row),
      status: draft.status,
      included_in_settlement: draft.includedInSettlement,
    };
  }

  /** The settlement with the status, times and reason its event gave it. */
  settlementAsOf(settlementId: string, type: FeedEventType, event: LedgerEvent): object {
    const row = this.settlements.get(settlementId);
    if (row === undefined) throw new Error(`settlement ${settlementId} is not in the read model yet`);
    const view = toSettlementView(row);
    const at = new Date((event.data as { at: string }).at).toISOString();
    return {
      ...view,
      status: SETTLEMENT_STATUS[type],
      failure_reason: type === 'settlement.failed' ? view.failure_reason : null,
      paid_at: type === 'settlement.paid' ? (view.paid_at ?? at) : null,
      failed_at: type === 'settlement.failed' ? (view.failed_at ?? at) : null,
    };
  }
}
