import { SqlQueryable } from '@payouts/database';
import {
  foldStored,
  PAYOUT_AGGREGATE,
  PayoutState,
  payoutIdFromStreamId,
  StoredEvent,
} from '@payouts/domain';
import {
  isContiguous,
  ProjectableEvent,
  projectWholeStreams,
  storedEvents,
  StreamSource,
  VersionedRow,
} from './projectable-event';

/**
 * The payout (list) read model: one row per payout, built by folding the payout's stream with
 * the domain's own `PAYOUT_AGGREGATE` (upcast, then evolve), so the read model can never disagree with the aggregate about a
 * status or a status_version. The row is replaced only by a newer stream version, so applying
 * the same event twice (inline, then by the projector; or on a replay) changes nothing. A batch
 * that holds the stream from its first event (every new payout) is folded without a read.
 */
export async function projectPayoutStream(
  tx: SqlQueryable,
  source: StreamSource,
  streamId: string,
  batch: readonly ProjectableEvent[],
): Promise<void> {
  const upToVersion = batch[batch.length - 1]!.streamVersion;
  let events: readonly StoredEvent[];
  if (batch[0]!.streamVersion === 1 && isContiguous(batch)) {
    // The whole stream is in hand (a new payout): fold it without reading anything back.
    events = batch;
  } else {
    const current = await tx.queryPrepared<{ stream_version: number }>(
      'SELECT stream_version FROM payout_list WHERE payout_id = $1',
      [payoutIdFromStreamId(streamId)],
    );
    if ((current.rows[0]?.stream_version ?? 0) >= upToVersion) return;
    events = await storedEvents(source, tx, streamId, 1, upToVersion);
  }
  const state = foldPayout(events);
  if (state.status === 'none') return;
  await upsertPayoutRows(tx, [{ row: state, version: upToVersion }]);
}

/**
 * Every payout a batch holds from its first event (new payouts: every Create in a group commit),
 * folded without a read and written in one statement. Returns the stream ids it did not take, for
 * projectPayoutStream.
 */
export function projectNewPayouts(
  tx: SqlQueryable,
  batches: ReadonlyMap<string, readonly ProjectableEvent[]>,
): Promise<string[]> {
  return projectWholeStreams(tx, batches, (batch) => writtenPayout(foldPayout(batch)), upsertPayoutRows);
}

/** The payout's row, or null before it was created. */
const writtenPayout = (state: PayoutState): WrittenPayout | null => (state.status === 'none' ? null : state);

const foldPayout = (events: readonly StoredEvent[]): PayoutState => foldStored(PAYOUT_AGGREGATE, events);

type WrittenPayout = Exclude<PayoutState, { status: 'none' }>;
type PayoutRow = VersionedRow<WrittenPayout>;

// Any number of rows in one statement: parallel text arrays (both drivers serialise those alike),
// cast to the columns' types. A row is replaced only by a newer stream version.
const UPSERT_PAYOUT_ROWS_SQL = `INSERT INTO payout_list (
    payout_id, account_id, environment, stream_version, status, status_version, amount, fee, total_reserved,
    currency, funds_released, merchant_reference, customer_id, delivery, source, case_reference,
    selected_method, safe_reason, receipt_reference, created_at, accepted_at, payout_expires_at, updated_at)
  SELECT r.payout_id, r.account_id, r.environment, r.stream_version::integer, r.status, r.status_version::integer,
         r.amount::numeric, r.fee::numeric, r.total_reserved::numeric, r.currency, r.funds_released::boolean,
         r.merchant_reference, r.customer_id, r.delivery, r.source, r.case_reference, r.selected_method,
         r.safe_reason, r.receipt_reference, r.created_at::timestamptz, r.accepted_at::timestamptz,
         r.payout_expires_at::timestamptz, r.updated_at::timestamptz
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
                $16::text[], $17::text[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[],
                $23::text[])
      AS r(payout_id, account_id, environment, stream_version, status, status_version, amount, fee,
           total_reserved, currency, funds_released, merchant_reference, customer_id, delivery, source,
           case_reference, selected_method, safe_reason, receipt_reference, created_at, accepted_at,
           payout_expires_at, updated_at)
  ON CONFLICT (payout_id) DO UPDATE SET
    stream_version = EXCLUDED.stream_version, status = EXCLUDED.status, status_version = EXCLUDED.status_version,
    funds_released = EXCLUDED.funds_released, selected_method = EXCLUDED.selected_method,
    safe_reason = EXCLUDED.safe_reason, receipt_reference = EXCLUDED.receipt_reference,
    accepted_at = EXCLUDED.accepted_at, updated_at = EXCLUDED.updated_at
  WHERE payout_list.stream_version < EXCLUDED.stream_version`;

async function upsertPayoutRows(tx: SqlQueryable, rows: readonly PayoutRow[]): Promise<void> {
  const column = (pick: (row: PayoutRow) => string | number | boolean | null) =>
    rows.map((row) => {
      const value = pick(row);
      return value === null ? null : String(value);
    });
  await tx.queryPrepared(UPSERT_PAYOUT_ROWS_SQL, [
    column((r) => r.row.payoutId),
    column((r) => r.row.accountId),
    column((r) => r.row.environment),
    column((r) => r.version),
    column((r) => r.row.status),
    column((r) => r.row.statusVersion),
    column((r) => r.row.amount),
    column((r) => r.row.fee),
    column((r) => r.row.totalReserved),
    column((r) => r.row.currency),
    column((r) => r.row.fundsReleased),
    column((r) => r.row.merchantReference),
    column((r) => r.row.customerId),
    column((r) => r.row.delivery),
    column((r) => r.row.source),
    column((r) => r.row.caseReference),
    column((r) => r.row.selectedMethod),
    column((r) => r.row.safeReason),
    column((r) => r.row.receiptReference),
    column((r) => r.row.createdAt),
    column((r) => r.row.acceptedAt),
    column((r) => r.row.payoutExpiresAt),
    column((r) => r.row.updatedAt),
  ]);
}
