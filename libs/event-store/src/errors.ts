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
