import { DatabaseUnavailableError } from '@payouts/database';
import type { ExpectedVersion } from './event-store.port';

/** Another writer changed the stream first (or it exists / does not exist, against expectations). */
export class StreamVersionConflictError extends Error {
  constructor(
    readonly streamId: string,
    readonly expectedVersion: ExpectedVersion,
    /** The stream's version when the conflict was reported; 0 when it does not exist. */
    readonly actualVersion: number,
    options?: ErrorOptions,
  ) {
    super(
      `stream ${streamId}: expected version ${expectedVersion}, found ${actualVersion === 0 ? 'no stream' : `version ${actualVersion}`}`,
      options,
    );
    this.name = 'StreamVersionConflictError';
  }
}

/** An event id given to append is already stored (event ids are unique across the store). */
export class DuplicateEventIdError extends Error {
  constructor(
    /** The duplicate id when the database named it. */
    readonly eventId: string | undefined,
    options?: ErrorOptions,
  ) {
    super(`event id ${eventId ?? '(unknown)'} is already stored`, options);
    this.name = 'DuplicateEventIdError';
  }
}

/**
 * The event store could not be reached (EventStoreDB down, a call timed out). A DatabaseUnavailableError,
 * so requests answer 503 service_unavailable with Retry-After like a lost database connection.
 */
export class EventStoreUnavailableError extends DatabaseUnavailableError {
  constructor(
    cause: unknown,
    /**
     * True when the failure came before anything was decided (nothing will be written); false
     * when the append was decided and its events wait to be written (docs/eventstoredb.md#appends):
     * the outcome is then "written later", not "not written".
     */
    readonly nothingWritten: boolean,
  ) {
    super(cause);
    this.name = 'EventStoreUnavailableError';
  }
}
