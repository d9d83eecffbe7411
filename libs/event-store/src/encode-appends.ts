import { randomUUID } from 'node:crypto';
import { EVENT_STORE_LIMITS, ExpectedVersion, NewEvent, StreamAppend } from './event-store.port';

/** One stream's append, checked and serialised: the events as parallel arrays (one unnest per batch). */
export interface EncodedAppend {
  streamId: string;
  streamType: string;
  /** As the caller gave it (reported in a conflict). */
  expectedVersion: ExpectedVersion;
  /** What is checked: 0 is folded into 'no_stream'. */
  check: { kind: 'no_stream' } | { kind: 'any' } | { kind: 'version'; version: number };
  eventIds: string[];
  types: string[];
  schemaVersions: number[];
  data: string[];
  metadata: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks an append before any I/O and returns the streams sorted by id: every writer locks stream
 * rows in the same order, so concurrent multi-stream appends cannot deadlock.
 */
export function encodeAppends(appends: readonly StreamAppend[]): EncodedAppend[] {
  if (appends.length === 0) throw new RangeError('append needs at least one stream');
  if (appends.length > EVENT_STORE_LIMITS.maxStreamsPerAppend) {
    throw new RangeError(`append takes at most ${EVENT_STORE_LIMITS.maxStreamsPerAppend} streams`);
  }
  const seen = new Set<string>();
  let eventCount = 0;
  const encoded = appends.map((append) => {
    checkId('streamId', append.streamId);
    checkId('streamType', append.streamType);
    if (seen.has(append.streamId))
      throw new RangeError(`stream ${append.streamId} appears twice in one append`);
    seen.add(append.streamId);
    if (append.events.length === 0) throw new RangeError(`append to stream ${append.streamId} has no events`);
    eventCount += append.events.length;
    return encodeStream(append);
  });
  if (eventCount > EVENT_STORE_LIMITS.maxEventsPerAppend) {
    throw new RangeError(`append takes at most ${EVENT_STORE_LIMITS.maxEventsPerAppend} events`);
  }
  return encoded.sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
}

function encodeStream(append: StreamAppend): EncodedAppend {
  const result: EncodedAppend = {
    streamId: append.streamId,
    streamType: append.streamType,
    expectedVersion: append.expectedVersion,
    check: checkOf(append.expectedVersion),
    eventIds: [],
    types: [],
    schemaVersions: [],
    data: [],
    metadata: [],
  };
  append.events.forEach((event, index) => {
    const where = `stream ${append.streamId}, event ${index}`;
    checkEvent(event, where);
    result.eventIds.push(event.eventId ?? randomUUID());
    result.types.push(event.type);
    result.schemaVersions.push(event.schemaVersion);
    result.data.push(toJson(event.data, `${where} data`));
    result.metadata.push(toJson(event.metadata ?? {}, `${where} metadata`));
  });
  return result;
}

function checkOf(expected: ExpectedVersion): EncodedAppend['check'] {
  if (expected === 'no_stream' || expected === 0) return { kind: 'no_stream' };
  if (expected === 'any') return { kind: 'any' };
  if (typeof expected === 'number' && Number.isSafeInteger(expected) && expected > 0 && expected < 2 ** 31) {
    return { kind: 'version', version: expected };
  }
  throw new RangeError(
    `expected version must be a stream version, 'no_stream' or 'any', not ${String(expected)}`,
  );
}

function checkEvent(event: NewEvent, where: string): void {
  if (
    typeof event.type !== 'string' ||
    event.type.length === 0 ||
    event.type.length > EVENT_STORE_LIMITS.maxIdLength
  ) {
    throw new RangeError(`${where}: type must be a non-empty string`);
  }
  if (
    !Number.isSafeInteger(event.schemaVersion) ||
    event.schemaVersion < 1 ||
    event.schemaVersion >= 2 ** 31
  ) {
    throw new RangeError(`${where}: schemaVersion must be a positive integer`);
  }
  if (event.eventId !== undefined && !UUID.test(event.eventId)) {
    throw new RangeError(`${where}: eventId must be a UUID`);
  }
  const metadata: unknown = event.metadata;
  if (
    metadata !== undefined &&
    (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
  ) {
    throw new RangeError(`${where}: metadata must be an object`);
  }
}

function checkId(name: string, value: string): void {
  if (typeof value !== 'string' || value.length === 0 || value.length > EVENT_STORE_LIMITS.maxIdLength) {
    throw new RangeError(`${name} must be a string of 1 to ${EVENT_STORE_LIMITS.maxIdLength} characters`);
  }
}

function toJson(value: unknown, where: string): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`${where} cannot be stored as JSON`, { cause: error });
  }
  if (json === undefined) throw new TypeError(`${where} cannot be stored as JSON (undefined or a function)`);
  return json;
}
