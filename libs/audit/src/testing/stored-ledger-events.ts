import { LEDGER_EVENT_SCHEMA_VERSIONS, LedgerEvent } from '@payouts/domain';
import type { AuditEvent } from '../feed/audit-feed';

/**
 * Ledger events as the audit reads them from the log: versions 1, 2, … and positions 101, 102, …,
 * each at its current schema version. Test code only.
 */
export function storedLedgerEvents(streamId: string, events: readonly LedgerEvent[]): AuditEvent[] {
  return events.map((event, i) => ({
    position: String(101 + i),
    transactionId: String(1000 + i),
    eventId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    streamId,
    streamType: 'ledger',
    streamVersion: i + 1,
    eventType: event.type,
    schemaVersion: LEDGER_EVENT_SCHEMA_VERSIONS[event.type],
    data: event.data,
    metadata: {},
    recordedAt: event.data.at,
  }));
}
