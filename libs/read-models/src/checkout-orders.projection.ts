import { SqlQueryable } from '@payouts/database';
import { evolveOrder, initialOrderState, Order, OrderEvent, OrderState } from '@payouts/domain';
import { isContiguous, ProjectableEvent } from './projectable-event';

/**
 * The checkout orders read model: one row per order, folded with the domain's own evolve (the
 * read model cannot disagree with the aggregate about a status), replaced only by a newer stream
 * version, so the same events applied twice (inline, then by the projector; or on a replay)
 * change nothing. A batch that holds the stream from its first event is folded without a read.
 */
export async function projectOrderStream(
  tx: SqlQueryable,
  streamId: string,
  batch: readonly ProjectableEvent[],
): Promise<void> {
  const upToVersion = batch[batch.length - 1]!.streamVersion;
  let events: readonly { type: string; data: unknown }[] = batch;
  if (!(batch[0]!.streamVersion === 1 && isContiguous(batch))) {
    const stored = await tx.queryPrepared<{ event_type: string; data: unknown }>(
      'SELECT event_type, data FROM events WHERE stream_id = $1 AND stream_version <= $2 ORDER BY stream_version',
      [streamId, upToVersion],
    );
    events = stored.rows.map((row) => ({ type: row.event_type, data: row.data }));
  }
  const state = events.reduce(
    (acc: OrderState, event) => evolveOrder(acc, { type: event.type, data: event.data } as OrderEvent),
    initialOrderState(),
  );
  if (state.status === 'none') return;
  await upsertOrderRow(tx, state, upToVersion);
}

const UPSERT_ORDER = `INSERT INTO checkout_orders (order_id, account_id, environment, method, amount, currency,
    customer, product, redirect_url, hook_url, credential_id, page_token_hash, status, attempts,
    last_decline, instrument, created_at, paid_at, expires_at, version)
  VALUES ($1, $2, $3, $4, $5::numeric, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::jsonb, $17, $18, $19, $20)
  ON CONFLICT (order_id) DO UPDATE SET status = EXCLUDED.status, attempts = EXCLUDED.attempts,
    last_decline = EXCLUDED.last_decline, instrument = EXCLUDED.instrument, paid_at = EXCLUDED.paid_at,
    version = EXCLUDED.version
  WHERE checkout_orders.version < EXCLUDED.version`;

async function upsertOrderRow(tx: SqlQueryable, order: Order, version: number): Promise<void> {
  await tx.queryPrepared(UPSERT_ORDER, [
    order.orderId,
    order.accountId,
    order.environment,
    order.method,
    order.amount,
    order.currency,
    order.customer,
    order.product,
    order.redirectUrl,
    order.hookUrl,
    order.credentialId,
    order.pageTokenHash,
    order.status,
    order.attempts,
    order.lastDecline,
    order.instrument === null ? null : JSON.stringify(order.instrument),
    order.createdAt,
    order.paidAt,
    order.expiresAt,
    version,
  ]);
}
