import { SqlQueryable } from '@payouts/database';
import {
  evolvePayout,
  initialPayoutState,
  PAYOUT_EVENT_SCHEMA_VERSIONS,
  PayoutEvent,
  PayoutState,
  payoutIdFromStreamId,
} from '@payouts/domain';
import { isContiguous, ProjectableEvent } from './projectable-event';

/**
 * The payout (list) read model: one row per payout, built by folding the payout's stream with
 * the domain's own `evolve`, so the read model can never disagree with the aggregate about a
 * status or a status_version. The row is replaced only by a newer stream version, so applying
 * the same event twice (inline, then by the projector; or on a replay) changes nothing. A batch
 * that holds the stream from its first event (every new payout) is folded without a read.
 */
export async function projectPayoutStream(
  tx: SqlQueryable,
  streamId: string,
  batch: readonly ProjectableEvent[],
): Promise<void> {
  const upToVersion = batch[batch.length - 1]!.streamVersion;
  let events: readonly { type: string; schemaVersion: number; data: unknown }[];
  if (batch[0]!.streamVersion === 1 && isContiguous(batch)) {
    // The whole stream is in hand (a new payout): fold it without reading anything back.
    events = batch;
  } else {
    const current = await tx.queryPrepared<{ stream_version: number }>(
      'SELECT stream_version FROM payout_list WHERE payout_id = $1',
      [payoutIdFromStreamId(streamId)],
    );
    if ((current.rows[0]?.stream_version ?? 0) >= upToVersion) return;
    const stored = await tx.queryPrepared<{ event_type: string; schema_version: number; data: unknown }>(
      'SELECT event_type, schema_version, data FROM events WHERE stream_id = $1 AND stream_version <= $2 ORDER BY stream_version',
      [streamId, upToVersion],
    );
    events = stored.rows.map((row) => ({
      type: row.event_type,
      schemaVersion: row.schema_version,
      data: row.data,
    }));
  }
  let state: PayoutState = initialPayoutState();
  for (const event of events) state = evolvePayout(state, toPayoutEvent(event));
  if (state.status === 'none') return;
  await upsertPayoutRow(tx, state, upToVersion);
}

function toPayoutEvent(event: { type: string; schemaVersion: number; data: unknown }): PayoutEvent {
  const known = PAYOUT_EVENT_SCHEMA_VERSIONS[event.type as PayoutEvent['type']];
  if (known === undefined) throw new Error(`unknown payout event type ${event.type}`);
  if (event.schemaVersion !== known) {
    throw new Error(
      `payout event ${event.type} has schema version ${event.schemaVersion}; this build reads ${known}`,
    );
  }
  return { type: event.type, data: event.data } as PayoutEvent;
}

async function upsertPayoutRow(
  tx: SqlQueryable,
  payout: Exclude<PayoutState, { status: 'none' }>,
  version: number,
) {
  await tx.queryPrepared(
    `INSERT INTO payout_list (
       payout_id, account_id, environment, stream_version, status, status_version, amount, fee, total_reserved,
       currency, funds_released, merchant_reference, customer_id, delivery, source, case_reference,
       selected_method, safe_reason, receipt_reference, created_at, accepted_at, payout_expires_at, updated_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23)
     ON CONFLICT (payout_id) DO UPDATE SET
       stream_version = EXCLUDED.stream_version, status = EXCLUDED.status, status_version = EXCLUDED.status_version,
       funds_released = EXCLUDED.funds_released, selected_method = EXCLUDED.selected_method,
       safe_reason = EXCLUDED.safe_reason, receipt_reference = EXCLUDED.receipt_reference,
       accepted_at = EXCLUDED.accepted_at, updated_at = EXCLUDED.updated_at
     WHERE payout_list.stream_version < EXCLUDED.stream_version`,
    [
      payout.payoutId,
      payout.accountId,
      payout.environment,
      version,
      payout.status,
      payout.statusVersion,
      payout.amount,
      payout.fee,
      payout.totalReserved,
      payout.currency,
      payout.fundsReleased,
      payout.merchantReference,
      payout.customerId,
      payout.delivery,
      payout.source,
      payout.caseReference,
      payout.selectedMethod,
      payout.safeReason,
      payout.receiptReference,
      payout.createdAt,
      payout.acceptedAt,
      payout.payoutExpiresAt,
      payout.updatedAt,
    ],
  );
}
