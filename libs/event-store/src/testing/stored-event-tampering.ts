import type { SqlClient } from '@payouts/database';

/** An event written past the store, at a position of the caller's choosing. */
export interface ForgedEvent {
  position: string;
  transactionId: string;
  streamId: string;
  streamType: string;
  streamVersion: number;
  type: string;
  schemaVersion: number;
  data: unknown;
}

/**
 * What an intruder with the database's superuser can do to the stored events, which the store
 * itself never does (a trigger refuses updates and deletes, migration 0001): for the audit's
 * tamper tests, which must find each change (docs/audit.md). Test code only.
 */
export class StoredEventTampering {
  constructor(private readonly db: SqlClient) {}

  /** Sets one top-level key of the event's data to `value`. */
  editData(position: string, key: string, value: unknown): Promise<void> {
    return this.untriggered(
      `UPDATE events SET data = jsonb_set(data, ARRAY[$2], $3::jsonb) WHERE global_position = $1`,
      [position, key, JSON.stringify(value)],
    );
  }

  /** Sets one top-level key of the event's metadata to `value`. */
  editMetadata(position: string, key: string, value: unknown): Promise<void> {
    return this.untriggered(
      `UPDATE events SET metadata = jsonb_set(metadata, ARRAY[$2], $3::jsonb) WHERE global_position = $1`,
      [position, key, JSON.stringify(value)],
    );
  }

  delete(positions: readonly string[]): Promise<void> {
    return this.untriggered('DELETE FROM events WHERE global_position = ANY($1::bigint[])', [positions]);
  }

  /** Inserts the event as given (its own position and transaction id); the stream's row is left as it was. */
  async insert(event: ForgedEvent): Promise<void> {
    await this.db.query(
      `INSERT INTO events (global_position, transaction_id, event_id, stream_id, stream_type, stream_version,
                           event_type, schema_version, data)
       OVERRIDING SYSTEM VALUE
       VALUES ($1::bigint, $2::xid8, gen_random_uuid(), $3, $4, $5, $6, $7, $8::jsonb)`,
      [
        event.position,
        event.transactionId,
        event.streamId,
        event.streamType,
        event.streamVersion,
        event.type,
        event.schemaVersion,
        JSON.stringify(event.data),
      ],
    );
  }

  /** The statement with the store's trigger off, as the intruder would run it. */
  private async untriggered(sql: string, params: unknown[]): Promise<void> {
    await this.db.exec('ALTER TABLE events DISABLE TRIGGER events_no_update');
    try {
      await this.db.query(sql, params);
    } finally {
      await this.db.exec('ALTER TABLE events ENABLE TRIGGER events_no_update');
    }
  }
}
