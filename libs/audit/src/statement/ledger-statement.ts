import type { EventStore } from '@payouts/event-store';
import { AUDIT_BATCH_SIZE, AuditEvent, toAuditEvent } from '../feed/audit-feed';
import { missingLogError } from '../verify/verify-log';
import { StatementFold, StatementRequest } from './statement-fold';
import { StatementLine } from './statement-line';

/** Where a statement reads its ledger: the event store port. */
export type StatementSource = Pick<EventStore, 'readStream'>;

/**
 * Every event of one stream in version order, a batch of versions at a time, so a long ledger
 * costs one batch of memory. A stream's versions commit in order (each append expects the one
 * before), so reading by version never skips an event committed later.
 */
export async function* streamEvents(
  store: StatementSource,
  streamId: string,
  batchSize: number = AUDIT_BATCH_SIZE,
): AsyncGenerator<AuditEvent> {
  for (let after = 0; ; after += batchSize) {
    const { version, events } = await store.readStream(streamId, {
      fromVersion: after + 1,
      toVersion: after + batchSize,
    });
    for (const event of events) yield toAuditEvent(event);
    if (version <= after + batchSize) return;
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
 * Throws StatementFindingError where the figures cannot be trusted (exit 1), AuditSetupError
 * when the database has no event log (exit 2).
 */
export async function* ledgerStatement(
  store: StatementSource,
  request: StatementRequest,
  options: StatementOptions = {},
): AsyncGenerator<StatementLine> {
  const fold = new StatementFold(request);
  const events = streamEvents(store, fold.streamId, options.batchSize);
  for (;;) {
    let next: IteratorResult<AuditEvent>;
    try {
      next = await events.next();
    } catch (error) {
      throw missingLogError(error) ?? error;
    }
    if (next.done) break;
    yield* fold.push(next.value);
    options.onEvent?.(next.value.streamVersion);
    if (fold.closed) return;
  }
  yield* fold.finish();
}
