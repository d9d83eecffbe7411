import { AggregateFolds, FoldedEvent } from './aggregate-folds';
import { Consequence, Finding, stopsItsStream } from './findings';
import { PaidChecks } from './paid-checks';
import { StreamOrder } from './stream-order';

/** Where a finding goes, with the feed index (0, 1, ...) of the event being checked when it was made. */
export type ReportIndexedFinding = (finding: Finding, index: number) => void;

/**
 * The stream checks of verify: version order, the aggregates' folds and the paid checks, event
 * by event in feed order.
 *
 * A stream's first finding that breaks its fold or its version order (findings.ts:
 * stopsItsStream) stops it: each of its later events is counted, not folded, since a fold that
 * left an event out or a stream missing a version would fail or hold every event after it, and
 * one cause would read as hundreds of findings. The counts come out at the end, to be put under
 * the cause (docs/audit.md, "One cause, its consequences").
 */
export class FoldPass {
  private readonly order: StreamOrder;
  private readonly paid: PaidChecks;
  private readonly folds: AggregateFolds;
  /** The streams stopped by a finding, each with its count of events not checked since. */
  private readonly stopped = new Map<string, Consequence>();
  /** The feed index a finding made now is at: the event being taken, or where a gap began. */
  private at = 0;
  private events = 0;

  constructor(private readonly report: ReportIndexedFinding) {
    const found = (finding: Finding) => this.found(finding);
    this.order = new StreamOrder(found);
    this.paid = new PaidChecks(found);
    this.folds = new AggregateFolds(found, this.paid);
  }

  /** The next event in feed order, at feed index `index`. */
  accept(event: FoldedEvent, index: number): void {
    this.at = index;
    this.events = index + 1;
    if (this.stopped.size !== 0 && this.countedUnchecked(event)) return;
    for (const ready of this.order.accept(event, index)) {
      // A fold may stop the stream part way through the versions one event released.
      if (this.stopped.size === 0 || !this.countedUnchecked(ready)) this.folds.apply(ready);
    }
  }

  /**
   * After the last event: reports each stream still waiting for a version (a gap, at the index
   * where its stream began to wait; the events it holds are its unchecked ones), then the paid
   * orders and proceeds that never met. Returns what each stopped stream left unchecked (a stream
   * stopped at its last event is left out), for the finding that caused it.
   */
  finish(): Consequence[] {
    for (const { finding, since } of this.order.waiting()) {
      this.at = since;
      this.found(finding);
    }
    this.at = this.events;
    // A pair whose other half would be among a stopped stream's unchecked events is counted there.
    this.paid.finish((streamId) => {
      const consequence = this.stopped.get(streamId);
      if (consequence === undefined || consequence.uncheckedEvents === 0) return false;
      consequence.unpaired += 1;
      return true;
    });
    return [...this.stopped.values()].filter((consequence) => consequence.uncheckedEvents > 0);
  }

  get streams(): number {
    return this.order.streams;
  }

  private found(finding: Finding): void {
    const streamId = finding.streamId;
    if (streamId !== null && stopsItsStream(finding.kind) && !this.stopped.has(streamId)) {
      // Events it held for a missing version are never folded now: they are its first unchecked.
      this.stopped.set(streamId, { streamId, uncheckedEvents: this.order.drop(streamId), unpaired: 0 });
    }
    this.report(finding, this.at);
  }

  /** Whether the event's stream is stopped (then the event is counted, not folded). */
  private countedUnchecked(event: FoldedEvent): boolean {
    const stopped = this.stopped.get(event.streamId);
    if (stopped === undefined) return false;
    stopped.uncheckedEvents += 1;
    return true;
  }
}
