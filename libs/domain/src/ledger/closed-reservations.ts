export type ReservationOutcome = 'released' | 'settled';

type Entry = { outcome: ReservationOutcome; seq: number };

/**
 * Payout ids whose reservation has ended, and how. A ledger remembers them forever (a payout id
 * is never reserved twice), so copying them on every event would make folding a long stream
 * quadratic. Instead a value shares one append-only map with its successors and sees only the
 * entries below its own size; adding to a value that is not the newest copies its prefix first.
 * Every value therefore behaves as immutable, and folding n events costs O(n).
 */
export class ClosedReservations {
  private constructor(
    private readonly log: Map<string, Entry>,
    readonly size: number,
  ) {}

  static empty(): ClosedReservations {
    return new ClosedReservations(new Map(), 0);
  }

  /** Payouts closed in this order (a payout twice is a bug, as in `with`). */
  static from(closed: Iterable<readonly [string, ReservationOutcome]>): ClosedReservations {
    let reservations = ClosedReservations.empty();
    for (const [payoutId, outcome] of closed) reservations = reservations.with(payoutId, outcome);
    return reservations;
  }

  get(payoutId: string): ReservationOutcome | undefined {
    const entry = this.log.get(payoutId);
    return entry !== undefined && entry.seq < this.size ? entry.outcome : undefined;
  }

  with(payoutId: string, outcome: ReservationOutcome): ClosedReservations {
    if (this.get(payoutId) !== undefined) throw new Error(`Reservation ${payoutId} is already closed`);
    // Each id enters a log once, so the log's size counts its appends: equal sizes mean we are newest.
    const isNewest = this.log.size === this.size;
    const log = isNewest ? this.log : new Map([...this.log].filter(([, entry]) => entry.seq < this.size));
    log.set(payoutId, { outcome, seq: this.size });
    return new ClosedReservations(log, this.size + 1);
  }
}
