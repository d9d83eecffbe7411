import { AggregateFolds } from './aggregate-folds';
import type { IndexedFinding } from './chain-checker';
import { Finding } from './findings';
import { PaidChecks } from './paid-checks';
import { StreamOrder } from './stream-order';
import type { FoldedEvent } from './verify-feed';

/** What a fold pass leaves at the end of the log. */
export interface FoldEnd {
  /** Streams still waiting for a version, each at the index where it began to wait, in that order. */
  gaps: IndexedFinding[];
  /** The paid checks' findings about orders and proceeds that never met. */
  unmatched: Finding[];
  streams: number;
}

/**
 * The stream checks of verify for the streams one thread folds: version order, the aggregates'
 * folds and the paid checks. Each finding goes to `report` with the feed index of the event being
 * taken when it was made, so two passes over disjoint sets of streams merge into the order of one.
 *
 * Any split by stream id gives the same findings as one pass over all streams: every fold and
 * version check is kept per stream id, and the paid checks pair a payout or an order only with a
 * ledger's proceeds, after each fold has checked that its stream id is the one it names (so a
 * payout's or order's stream is never a ledger's). Two things are per pass: a stream type this
 * build cannot check is reported once by each (verifyLog keeps the first), and each holds at most
 * MAX_HELD_EVENTS early versions.
 */
export class FoldPass {
  private readonly order: StreamOrder;
  private readonly paid: PaidChecks;
  private readonly folds: AggregateFolds;
  private at = 0;
  /** Where findings go: to `report` at the current event while the log is read, then to finish's list. */
  private sink: (finding: Finding) => void;

  constructor(report: (found: IndexedFinding) => void) {
    this.sink = (finding) => report({ index: this.at, finding });
    const toSink = (finding: Finding) => this.sink(finding);
    this.order = new StreamOrder(toSink);
    this.paid = new PaidChecks(toSink);
    this.folds = new AggregateFolds(toSink, this.paid);
  }

  /** One event of this pass's streams, in feed order, at feed index `index`. */
  accept(event: FoldedEvent, index: number): void {
    this.at = index;
    for (const ready of this.order.accept(event, index)) this.folds.apply(ready);
  }

  finish(): FoldEnd {
    const gaps: IndexedFinding[] = [];
    this.order.finish((finding, since) => gaps.push({ index: since, finding }));
    const unmatched: Finding[] = [];
    this.sink = (finding) => unmatched.push(finding);
    this.paid.finish();
    return { gaps, unmatched, streams: this.order.streams };
  }
}
