import type { FoldedEvent } from './aggregate-folds';
import { Finding, ReportFinding } from './findings';

/** Events held while an earlier version of their stream is awaited, across all streams (Tiger style: a limit). */
export const MAX_HELD_EVENTS = 10_000;

/** A stream's events that came early, and the feed index of the event that made it wait. */
interface Waiting {
  since: number;
  versions: Map<number, FoldedEvent>;
}

/**
 * Hands each stream's events on in version order 1, 2, 3, ... Feed order is commit order, and a
 * stream's next version normally follows its previous one there; but a writer whose transaction
 * id is older can append the next version after a younger one committed, so a version may come
 * early. It is held (bounded) until the one before it arrives; whatever is still waiting at the
 * end marks a missing version.
 *
 * Memory: one number per stream, the price of checking versions are contiguous in one pass.
 */
export class StreamOrder {
  private readonly versions = new Map<string, number>();
  /** In the order the streams began to wait, which is `since` order. */
  private readonly held = new Map<string, Waiting>();
  private heldCount = 0;

  constructor(private readonly report: ReportFinding) {}

  /** The events now ready to fold, in version order (often just this one); `index` is the event's in feed order. */
  accept(event: FoldedEvent, index: number): FoldedEvent[] {
    const last = this.versions.get(event.streamId) ?? 0;
    // Nearly always nothing is held: no second look-up by stream id then.
    const waiting = this.held.size === 0 ? undefined : this.held.get(event.streamId)?.versions;
    if (event.streamVersion <= last || waiting?.has(event.streamVersion)) {
      this.report({
        kind: 'version_duplicate',
        position: event.position,
        streamId: event.streamId,
        detail: `version ${event.streamVersion} appears again (the stream is at ${last})`,
      });
      return [];
    }
    if (event.streamVersion > last + 1) {
      if (this.heldCount >= MAX_HELD_EVENTS) {
        this.report({
          kind: 'version_gap',
          position: event.position,
          streamId: event.streamId,
          detail: `version ${event.streamVersion} follows version ${last}; not folded (too many events waiting)`,
        });
        return [];
      }
      if (waiting === undefined) {
        this.held.set(event.streamId, { since: index, versions: new Map([[event.streamVersion, event]]) });
      } else waiting.set(event.streamVersion, event);
      this.heldCount += 1;
      return [];
    }
    const ready = [event];
    let version = event.streamVersion;
    for (let next = waiting?.get(version + 1); next !== undefined; next = waiting?.get(version + 1)) {
      waiting?.delete(version + 1);
      this.heldCount -= 1;
      ready.push(next);
      version += 1;
    }
    if (waiting?.size === 0) this.held.delete(event.streamId);
    this.versions.set(event.streamId, version);
    return ready;
  }

  /** Forgets the events a stream holds (verify stopped checking it, fold-pass.ts): how many there were. */
  drop(streamId: string): number {
    const waiting = this.held.get(streamId);
    if (waiting === undefined) return 0;
    this.held.delete(streamId);
    this.heldCount -= waiting.versions.size;
    return waiting.versions.size;
  }

  /**
   * Streams still waiting for a version at the end of the log: each is a gap, given with the feed
   * index at which its stream began to wait, in that order. Each still holds its events (every one
   * after the missing version, none of them folded) until the caller drops them.
   */
  waiting(): { finding: Finding & { streamId: string }; since: number }[] {
    return [...this.held].map(([streamId, { since, versions }]) => {
      const first = Math.min(...versions.keys());
      return {
        finding: {
          kind: 'version_gap',
          position: versions.get(first)?.position ?? null,
          streamId,
          detail: `version ${first} follows version ${this.versions.get(streamId) ?? 0}`,
        },
        since,
      };
    });
  }

  get streams(): number {
    return this.versions.size;
  }
}
