import type { FoldedEvent } from './verify-feed';
import { ReportFinding } from './findings';

/** Events held while an earlier version of their stream is awaited, across all streams (Tiger style: a limit). */
export const MAX_HELD_EVENTS = 10_000;

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
  private readonly held = new Map<string, Map<number, FoldedEvent>>();
  private heldCount = 0;

  constructor(private readonly report: ReportFinding) {}

  /** The events now ready to fold, in version order (often just this one). */
  accept(event: FoldedEvent): FoldedEvent[] {
    const last = this.versions.get(event.streamId) ?? 0;
    const waiting = this.held.get(event.streamId);
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
      this.held.set(
        event.streamId,
        (waiting ?? new Map<number, FoldedEvent>()).set(event.streamVersion, event),
      );
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

  /** Streams still waiting for a version: each is a gap. */
  finish(): void {
    for (const [streamId, waiting] of this.held) {
      const first = Math.min(...waiting.keys());
      const event = waiting.get(first);
      this.report({
        kind: 'version_gap',
        position: event?.position ?? null,
        streamId,
        detail: `version ${first} follows version ${this.versions.get(streamId) ?? 0}; ${waiting.size} event(s) of the stream not folded`,
      });
    }
  }

  get streams(): number {
    return this.versions.size;
  }
}
