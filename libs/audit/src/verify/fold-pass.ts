import { AggregateFolds } from './aggregate-folds';
import type { IndexedFinding } from './chain-checker';
import { Consequence, Finding, stopsItsStream } from './findings';
import { PaidChecks } from './paid-checks';
import { StreamOrder } from './stream-order';
import type { FoldedEvent } from './verify-feed';

/** What a fold pass leaves at the end of the log. */
export interface FoldEnd {
  /**
   * Streams still waiting for a version, each at the index where it began to wait, in that order;
   * each gap carries its consequence (the events its stream held).
   */
  gaps: IndexedFinding[];
  /** The paid checks' findings about orders and proceeds that never met. */
  unmatched: Finding[];
  /**
   * What each stream stopped while the log was read left unchecked (a stream stopped at its last
   * event is left out): the one finding that stopped the stream is its cause (finding-groups.ts).
   */
  consequences: Consequence[];
  streams: number;
}

/**
 * The stream checks of verify for the streams one thread folds: version order, the aggregates'
 * folds and the paid checks. Each finding goes to `report` with the feed index of the event being
 * taken when it was made, so two passes over disjoint sets of streams merge into the order of one.
 *
 * A stream's first finding that breaks its fold or its version order (findings.ts:
 * stopsItsStream) stops it: each of its later events is counted, not folded, since a fold that
 * left an event out or a stream missing a version would fail or hold every event after it, and
 * one cause would read as hundreds of findings. The counts come out at the end (`consequences`,
 * and each gap's own), to be put under the cause (docs/audit.md, "One cause, its consequences").
 *
 * Any split by stream id gives the same findings as one pass over all streams: every fold, stop
 * and version check is kept per stream id, and the paid checks pair a payout or an order only
 * with a ledger's proceeds, after each fold has checked that its stream id is the one it names
 * (so a payout's or order's stream is never a ledger's; orders and ledgers share a pass, so a
 * pair left unmatched by a stopped stream is seen in it). Two things are per pass: a stream type
 * this build cannot check is reported once by each (verifyLog keeps the first), and each holds at
 * most MAX_HELD_EVENTS early versions.
 */
export class FoldPass {
  private readonly order: StreamOrder;
  private readonly paid: PaidChecks;
  private readonly folds: AggregateFolds;
  /** The streams stopped by a finding, each with its count of events not checked since. */
  private readonly stopped = new Map<string, Consequence>();
  private at = 0;
  /** Where findings go: to `report` at the current event while the log is read, then to finish's list. */
  private sink: (finding: Finding) => void;

  constructor(report: (found: IndexedFinding) => void) {
    this.sink = (finding) => report({ index: this.at, finding });
    const toSink = (finding: Finding) => {
      const streamId = finding.streamId;
      if (streamId !== null && stopsItsStream(finding.kind) && !this.stopped.has(streamId)) {
        // Events it held for a missing version are never folded now: they are its first unchecked.
        this.stopped.set(streamId, { streamId, uncheckedEvents: this.order.drop(streamId), unpaired: 0 });
      }
      this.sink(finding);
    };
    this.order = new StreamOrder(toSink);
    this.paid = new PaidChecks(toSink);
    this.folds = new AggregateFolds(toSink, this.paid);
  }

  /** One event of this pass's streams, in feed order, at feed index `index`. */
  accept(event: FoldedEvent, index: number): void {
    this.at = index;
    if (this.stopped.size !== 0 && this.countedUnchecked(event)) return;
    for (const ready of this.order.accept(event, index)) {
      // A fold may stop the stream part way through the versions one event released.
      if (this.stopped.size === 0 || !this.countedUnchecked(ready)) this.folds.apply(ready);
    }
  }

  finish(): FoldEnd {
    // Streams with events left unchecked: those stopped with events after their cause, and those
    // still waiting for a version (every event they hold).
    const unchecked = new Map<string, Consequence>();
    for (const [streamId, consequence] of this.stopped) {
      if (consequence.uncheckedEvents > 0) unchecked.set(streamId, consequence);
    }
    const gaps: IndexedFinding[] = [];
    this.order.finish((finding, since, held) => {
      const consequence: Consequence = { streamId: finding.streamId, uncheckedEvents: held, unpaired: 0 };
      unchecked.set(finding.streamId, consequence);
      gaps.push({ index: since, finding: { ...finding, consequence } });
    });
    const unmatched: Finding[] = [];
    this.sink = (finding) => unmatched.push(finding);
    this.paid.finish((streamId) => {
      const consequence = unchecked.get(streamId);
      if (consequence !== undefined) consequence.unpaired += 1;
      return consequence !== undefined;
    });
    return {
      gaps,
      unmatched,
      consequences: [...this.stopped.values()].filter((consequence) => consequence.uncheckedEvents > 0),
      streams: this.order.streams,
    };
  }

  /** Whether the event's stream is stopped (then the event is counted, not folded). */
  private countedUnchecked(event: FoldedEvent): boolean {
    const stopped = this.stopped.get(event.streamId);
    if (stopped === undefined) return false;
    stopped.uncheckedEvents += 1;
    return true;
  }
}
