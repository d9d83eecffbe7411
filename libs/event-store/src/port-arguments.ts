import { EVENT_STORE_LIMITS, FeedCheckpoint, StreamRange } from './event-store.port';
import { isFeedCheckpoint } from './feed-checkpoint';

/**
 * The port's argument checks, refused up front with a RangeError before any I/O: one copy for
 * every adapter, so both refuse the same calls the same way (the contract suite checks them).
 */

/** Versions are int4 in the events table: a larger bound reads the same as this one. */
export const MAX_VERSION = 2 ** 31 - 1;

/** A global position: bigint, so at most 19 digits. */
const POSITION = /^[1-9][0-9]{0,18}$/;

/** A version bound: a non-negative integer, at most MAX_VERSION. */
export function versionBound(name: string, version: number): number {
  if (!Number.isSafeInteger(version) || version < 0) {
    throw new RangeError(`${name} must be a non-negative integer`);
  }
  return Math.min(version, MAX_VERSION);
}

/** An integer count from 1 to `max` (a page size, a cap). */
export function checkCount(name: string, value: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${name} must be an integer from 1 to ${max}`);
  }
}

/** readStreams' ranges: 1 to maxStreamsPerRead, each stream once, their versions bounded. */
export function checkedRanges(ranges: readonly StreamRange[]): StreamRange[] {
  if (ranges.length < 1 || ranges.length > EVENT_STORE_LIMITS.maxStreamsPerRead) {
    throw new RangeError(`ranges must be 1 to ${EVENT_STORE_LIMITS.maxStreamsPerRead}`);
  }
  const streams = new Set<string>();
  return ranges.map((range) => {
    if (streams.has(range.streamId)) throw new RangeError(`stream ${range.streamId} given twice`);
    streams.add(range.streamId);
    return {
      streamId: range.streamId,
      fromVersion: versionBound('fromVersion', range.fromVersion),
      toVersion: versionBound('toVersion', range.toVersion),
    };
  });
}

/** readFeed's `after` and `limit`. */
export function checkFeedPage(after: FeedCheckpoint, limit: number): void {
  if (!isFeedCheckpoint(after)) throw new RangeError('after must be a checkpoint handed out by the store');
  checkCount('limit', limit, EVENT_STORE_LIMITS.maxFeedPage);
}

/** checkpointAt's position: a positive decimal bigint. */
export function checkGlobalPosition(globalPosition: string): void {
  if (!POSITION.test(globalPosition)) {
    throw new RangeError('globalPosition must be a positive decimal integer');
  }
}
