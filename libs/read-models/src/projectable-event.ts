import type { SqlQueryable } from '@payouts/database';
import type { ReadStreamOptions } from '@payouts/event-store';

/** The parts of a recorded event the projections need (the event store's RecordedEvent has them). */
export interface ProjectableEvent {
  streamId: string;
  streamType: string;
  streamVersion: number;
  type: string;
  schemaVersion: number;
  data: unknown;
}

/** True when the events (sorted by version) follow each other without a gap. */
export function isContiguous(events: readonly ProjectableEvent[]): boolean {
  return events.every((event, i) => i === 0 || event.streamVersion === events[i - 1]!.streamVersion + 1);
}

/** A read model's row and the stream version it reflects. */
export interface VersionedRow<Row> {
  row: Row;
  version: number;
}

/**
 * Batches that each hold their stream from its first event, folded without a read to the row they
 * write (null: nothing to write) and written by one call of `write` (one statement); returns the
 * ids of the streams that do not, which their projection reads back. What lets every new payout
 * of a group commit, or every order of a replay's batch, be one statement.
 */
export async function projectWholeStreams<Tx, Row>(
  tx: Tx,
  batches: ReadonlyMap<string, readonly ProjectableEvent[]>,
  fold: (events: readonly ProjectableEvent[]) => Row | null,
  write: (tx: Tx, rows: readonly VersionedRow<Row>[]) => Promise<void>,
): Promise<string[]> {
  const rows: VersionedRow<Row>[] = [];
  const rest: string[] = [];
  for (const [streamId, batch] of batches) {
    if (batch[0]!.streamVersion !== 1 || !isContiguous(batch)) {
      rest.push(streamId);
      continue;
    }
    const row = fold(batch);
    if (row !== null) rows.push({ row, version: batch[batch.length - 1]!.streamVersion });
  }
  if (rows.length > 0) await write(tx, rows);
  return rest;
}

/**
 * Where a projection reads the part of a stream a batch does not hold: the event store port, in
 * the caller's transaction (a projection never reads the store's tables itself), or for a
 * command's own append the port with the events that append decided (the write side's).
 */
export interface StreamSource {
  readStream(streamId: string, options: ReadStreamOptions): Promise<{ events: readonly ProjectableEvent[] }>;
}

/** The stream's stored events from `fromVersion` to `toVersion`, read inside `tx`. */
export async function storedEvents(
  source: StreamSource,
  tx: SqlQueryable,
  streamId: string,
  fromVersion: number,
  toVersion: number,
): Promise<readonly ProjectableEvent[]> {
  return (await source.readStream(streamId, { fromVersion, toVersion, within: tx })).events;
}
