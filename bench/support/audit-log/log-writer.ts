import type { SqlClient } from '@payouts/database';
import { encodeAppends, StreamAppend } from '@payouts/event-store';

/**
 * The rows of many commands' appends in one transaction: the columns `append_to_streams`
 * (migration 0015) writes, as parallel arrays for one unnest, the events in the order the
 * commands appended them (each append's streams sorted by id, as the event store sorts them).
 * transaction_id and recorded_at are the database's defaults, as for every append; one
 * transaction holds many commands, as a group commit does.
 */
const INSERT_EVENTS_SQL = `INSERT INTO events
    (event_id, stream_id, stream_type, stream_version, event_type, schema_version, data, metadata)
  SELECT e.event_id, e.stream_id, e.stream_type, e.stream_version, e.event_type, e.schema_version, e.data, e.metadata
    FROM unnest($1::uuid[], $2::text[], $3::text[], $4::integer[], $5::text[], $6::integer[],
                ARRAY(SELECT j.value FROM jsonb_array_elements($7::jsonb) WITH ORDINALITY AS j(value, n) ORDER BY j.n),
                ARRAY(SELECT j.value FROM jsonb_array_elements($8::jsonb) WITH ORDINALITY AS j(value, n) ORDER BY j.n))
         WITH ORDINALITY AS e(event_id, stream_id, stream_type, stream_version, event_type, schema_version, data, metadata, n)
   ORDER BY e.n`;

/** Each stream's row at its version after the batch (the event store's optimistic concurrency row). */
const UPSERT_STREAMS_SQL = `INSERT INTO event_streams AS s (stream_id, stream_type, version)
  SELECT * FROM unnest($1::text[], $2::text[], $3::integer[])
  ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version, updated_at = now()
    WHERE s.version < excluded.version`;

class Batch {
  readonly eventIds: string[] = [];
  readonly streamIds: string[] = [];
  readonly streamTypes: string[] = [];
  readonly versions: number[] = [];
  readonly types: string[] = [];
  readonly schemaVersions: number[] = [];
  readonly data: string[] = [];
  readonly metadata: string[] = [];
  readonly streams = new Map<string, { type: string; version: number }>();

  get size(): number {
    return this.eventIds.length;
  }
}

/**
 * Writes the log a batch at a time, a few thousand events per transaction, with one batch in
 * flight while the next is being decided (the builder and the server share the work).
 */
export class LogWriter {
  private batch = new Batch();
  private inFlight: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  /** Events committed so far. */
  written = 0;
  /** Events decided so far, committed or not. */
  events = 0;
  /** Commands' appends (one per command that wrote something). */
  appends = 0;
  /** Events decided, by type. */
  readonly types: Record<string, number> = {};

  constructor(
    private readonly db: SqlClient,
    private readonly batchEvents: number,
  ) {}

  /** One command's append (the MemoryStreams sink). */
  readonly append = (appends: readonly StreamAppend[]): void => {
    const batch = this.batch;
    for (const encoded of encodeAppends([...appends])) {
      const base = encoded.check.kind === 'version' ? encoded.check.version : 0;
      encoded.eventIds.forEach((eventId, index) => {
        batch.eventIds.push(eventId);
        batch.streamIds.push(encoded.streamId);
        batch.streamTypes.push(encoded.streamType);
        batch.versions.push(base + index + 1);
      });
      batch.types.push(...encoded.types);
      for (const type of encoded.types) this.types[type] = (this.types[type] ?? 0) + 1;
      batch.schemaVersions.push(...encoded.schemaVersions);
      batch.data.push(...encoded.data);
      batch.metadata.push(...encoded.metadata);
      this.events += encoded.eventIds.length;
      batch.streams.set(encoded.streamId, {
        type: encoded.streamType,
        version: base + encoded.eventIds.length,
      });
    }
    this.appends += 1;
  };

  /** Sends the batch once it is full: waits for the one before, never for this one. */
  async flushIfFull(): Promise<void> {
    if (this.batch.size >= this.batchEvents) await this.flush();
  }

  async flush(): Promise<void> {
    await this.inFlight;
    if (this.failure !== null) throw this.failure;
    const batch = this.batch;
    if (batch.size === 0) return;
    this.batch = new Batch();
    this.inFlight = this.write(batch).then(
      () => void (this.written += batch.size),
      (error: unknown) => void (this.failure = error),
    );
  }

  /** Everything decided is committed. */
  async finish(): Promise<void> {
    await this.flush();
    await this.inFlight;
    if (this.failure !== null) throw this.failure;
  }

  private async write(batch: Batch): Promise<void> {
    const streams = [...batch.streams];
    await this.db.transaction(async (tx) => {
      await tx.query(INSERT_EVENTS_SQL, [
        batch.eventIds,
        batch.streamIds,
        batch.streamTypes,
        batch.versions,
        batch.types,
        batch.schemaVersions,
        `[${batch.data.join(',')}]`,
        `[${batch.metadata.join(',')}]`,
      ]);
      await tx.query(UPSERT_STREAMS_SQL, [
        streams.map(([id]) => id),
        streams.map(([, stream]) => stream.type),
        streams.map(([, stream]) => stream.version),
      ]);
    });
  }
}
