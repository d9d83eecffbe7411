import { hash } from 'node:crypto';
import { canonicalJson } from '@payouts/domain';

/** The link before the first event: 64 zeros. */
export const GENESIS_LINK = '0'.repeat(64);

/** What a link covers of one event: every column a reader sees except its place in the feed. */
export interface ChainedEvent {
  streamId: string;
  streamType: string;
  streamVersion: number;
  eventId: string;
  eventType: string;
  schemaVersion: number;
  data: unknown;
  metadata: unknown;
  /** recorded_at in UTC with microseconds, as the database keeps it: `2026-03-01T12:00:00.123456Z`. */
  recordedAt: string;
}

/**
 * link = hex(sha256(JSON array of [previous link, stream_id, stream_type, stream_version,
 * event_id, event_type, schema_version, canonical data, canonical metadata, recorded_at])).
 * A JSON array of strings and integers is an unambiguous encoding, and any language can rebuild
 * it from an export line (docs/audit.md spells it out for auditors).
 */
export function chainLink(previous: string, event: ChainedEvent): string {
  const input = JSON.stringify([
    previous,
    event.streamId,
    event.streamType,
    event.streamVersion,
    event.eventId,
    event.eventType,
    event.schemaVersion,
    canonicalJson(event.data),
    canonicalJson(event.metadata),
    event.recordedAt,
  ]);
  // The one-shot hash: verify links every event of the log, and a Hash object per event costs more.
  return hash('sha256', input, 'hex');
}
