import type { SqlClient } from '@payouts/database';
import type { AppendObserver } from './append-observer';
import type { EventStore } from './event-store.port';
import { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store';
import { PostgresEventStore } from './postgres/postgres-event-store';

export interface EventStoreChoice {
  /** EVENTSTORE_CONNECTION_STRING: events in EventStoreDB; unset: in `db` (docs/eventstoredb.md). */
  connectionString?: string | undefined;
  observer?: AppendObserver;
  /**
   * Whether this process writes the EventStoreDB appends that a writer left decided and unwritten
   * (every app does; a reader such as the audit does not, so it never writes).
   */
  recovers?: boolean;
}

/** The event store a process uses: EventStoreDB when a connection string is given, else `db` itself. */
export function openEventStore(db: SqlClient, choice: EventStoreChoice = {}): EventStore {
  if (!choice.connectionString) return new PostgresEventStore(db, { observer: choice.observer });
  return new EventStoreDbEventStore(choice.connectionString, db, {
    observer: choice.observer,
    ...(choice.recovers === false ? { recovery: { intervalMs: 0, olderThanMs: 0 } } : {}),
  });
}
