import type { SqlQueryable } from '@payouts/database';
import {
  AUDIT_BATCH_SIZE,
  AUDIT_EVENT_COLUMNS,
  AuditEvent,
  AuditEventRow,
  toAuditEvent,
} from '../feed/audit-feed';
import { AuditSetupError } from '../verify/verify-log';
import { StatementFold, StatementRequest } from './statement-fold';
import { StatementLine } from './statement-line';

/** One ledger's events in stream order, by its (stream_id, stream_version) index. */
const LEDGER_PAGE_SQL = `SELECT ${AUDIT_EVENT_COLUMNS}
  FROM events e
  WHERE e.stream_id = $1 AND e.stream_version > $2
  ORDER BY e.stream_version
  LIMIT $3`;

/**
 * Every event of one stream in version order, a batch at a time, so a long ledger costs one
 * batch of memory. A stream's versions commit in order (each append expects the one before), so
 * reading by version never skips an event committed later.
 */
export async function* streamEvents(
  db: SqlQueryable,
  streamId: string,
  batchSize: number = AUDIT_BATCH_SIZE,
): AsyncGenerator<AuditEvent> {
  let after = 0;
  for (;;) {
    const { rows } = await db.query<AuditEventRow>(LEDGER_PAGE_SQL, [streamId, after, batchSize]);
    for (const row of rows) yield toAuditEvent(row);
    const last = rows[rows.length - 1];
    if (!last || rows.length < batchSize) return;
    after = Number(last.stream_version);
  }
}

export interface StatementOptions {
  batchSize?: number;
  /** Called after each event read, with its version (progress). */
  onEvent?: (version: number) => void;
}

/**
 * The statement of one ledger (docs/audit.md): the opening line, every movement, the closing
 * line. Reads the ledger's own stream only, and stops at the first event at or after `to`.
 * Throws StatementFindingError where the figures cannot be trusted (exit 1).
 */
export async function* ledgerStatement(
  db: SqlQueryable,
  request: StatementRequest,
  options: StatementOptions = {},
): AsyncGenerator<StatementLine> {
  const { rows } = await db.query<{ events: string | null }>(
    `SELECT to_regclass('public.events')::text AS events`,
  );
  if (!rows[0]?.events) {
    throw new AuditSetupError('this database has no events table (is it the service database?)');
  }
  const fold = new StatementFold(request);
  for await (const event of streamEvents(db, fold.streamId, options.batchSize)) {
    yield* fold.push(event);
    options.onEvent?.(event.streamVersion);
    if (fold.closed) return;
  }
  yield* fold.finish();
}
