import { SqlQueryable } from '@payouts/database';
import { foldStored, Order, ORDER_AGGREGATE, OrderState, StoredEvent } from '@payouts/domain';
import {
  isContiguous,
  ProjectableEvent,
  projectWholeStreams,
  storedEvents,
  StreamSource,
  VersionedRow,
} from './projectable-event';

/**
 * The checkout orders read model: one row per order, folded with the domain's ORDER_AGGREGATE (the
 * read model cannot disagree with the aggregate about a status), replaced only by a newer stream
 * version, so the same events applied twice (inline, then by the projector; or on a replay)
 * change nothing. A batch that holds the stream from its first event is folded without a read.
 */
export async function projectOrderStream(
  tx: SqlQueryable,
  source: StreamSource,
  streamId: string,
  batch: readonly ProjectableEvent[],
): Promise<void> {
  const upToVersion = batch[batch.length - 1]!.streamVersion;
  const events: readonly StoredEvent[] =
    batch[0]!.streamVersion === 1 && isContiguous(batch)
      ? batch
      : await storedEvents(source, tx, streamId, 1, upToVersion);
  const state = foldOrder(events);
  if (state.status === 'none') return;
  await upsertOrderRows(tx, [{ row: state, version: upToVersion }]);
}

/**
 * Every order a batch holds from its first event (new orders; every order of a replay's batch,
 * which is handed its orders whole), folded without a read and written in one statement. Returns
 * the stream ids it did not take, for projectOrderStream.
 */
export function projectNewOrders(
  tx: SqlQueryable,
  batches: ReadonlyMap<string, readonly ProjectableEvent[]>,
): Promise<string[]> {
  return projectWholeStreams(tx, batches, (batch) => writtenOrder(foldOrder(batch)), upsertOrderRows);
}

/** The order's row, or null before it was created. */
const writtenOrder = (state: OrderState): Order | null => (state.status === 'none' ? null : state);

const foldOrder = (events: readonly StoredEvent[]): OrderState => foldStored(ORDER_AGGREGATE, events);

type OrderRow = VersionedRow<Order>;

const ORDER_COLUMNS = [
  'order_id',
  'account_id',
  'environment',
  'method',
  'amount',
  'currency',
  'customer',
  'product',
  'redirect_url',
  'hook_url',
  'credential_id',
  'page_token_hash',
  'status',
  'attempts',
  'last_decline',
  'instrument',
  'created_at',
  'paid_at',
  'expires_at',
  'version',
] as const;
const ORDER_CASTS: Partial<Record<(typeof ORDER_COLUMNS)[number], string>> = {
  order_id: 'bigint',
  amount: 'numeric',
  attempts: 'integer',
  instrument: 'jsonb',
  created_at: 'timestamptz',
  paid_at: 'timestamptz',
  expires_at: 'timestamptz',
  version: 'integer',
};

// Any number of rows in one statement: parallel text arrays cast to the columns' types, as the
// payouts' (payout-list.projection.ts). A row is replaced only by a newer stream version.
const UPSERT_ORDER_ROWS = `INSERT INTO checkout_orders (${ORDER_COLUMNS.join(', ')})
  SELECT ${ORDER_COLUMNS.map((c) => (ORDER_CASTS[c] ? `r.${c}::${ORDER_CASTS[c]}` : `r.${c}`)).join(', ')}
    FROM unnest(${ORDER_COLUMNS.map((_, i) => `$${i + 1}::text[]`).join(', ')}) AS r(${ORDER_COLUMNS.join(', ')})
  ON CONFLICT (order_id) DO UPDATE SET status = EXCLUDED.status, attempts = EXCLUDED.attempts,
    last_decline = EXCLUDED.last_decline, instrument = EXCLUDED.instrument, paid_at = EXCLUDED.paid_at,
    version = EXCLUDED.version
  WHERE checkout_orders.version < EXCLUDED.version`;

async function upsertOrderRows(tx: SqlQueryable, rows: readonly OrderRow[]): Promise<void> {
  const text = (value: string | number | null) => (value === null ? null : String(value));
  const column = (pick: (row: OrderRow) => string | number | null) => rows.map((row) => text(pick(row)));
  await tx.queryPrepared(UPSERT_ORDER_ROWS, [
    column((r) => r.row.orderId),
    column((r) => r.row.accountId),
    column((r) => r.row.environment),
    column((r) => r.row.method),
    column((r) => r.row.amount),
    column((r) => r.row.currency),
    column((r) => r.row.customer),
    column((r) => r.row.product),
    column((r) => r.row.redirectUrl),
    column((r) => r.row.hookUrl),
    column((r) => r.row.credentialId),
    column((r) => r.row.pageTokenHash),
    column((r) => r.row.status),
    column((r) => r.row.attempts),
    column((r) => r.row.lastDecline),
    column((r) => (r.row.instrument === null ? null : JSON.stringify(r.row.instrument))),
    column((r) => r.row.createdAt),
    column((r) => r.row.paidAt),
    column((r) => r.row.expiresAt),
    column((r) => r.version),
  ]);
}
