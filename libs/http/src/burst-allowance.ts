/**
 * An arrival that finds room under the measured bound ends the episode when none found it taken
 * for this long: the next pressure is a new burst.
 */
export const BURST_QUIET_MS = 250;

export interface BurstLimits {
  /** What may be taken while the pressure is young, whatever the measured bound: a burst's size. */
  readonly floor: number;
  /** How long pressure counts as a burst at least; past it, only the measured bound admits. */
  readonly youngMs: number;
}

/**
 * A high floor that holds only for a burst, beside a bound found by measuring (a queue's length,
 * the commands in flight).
 *
 * A burst (a merchant's 500 concurrent creates) comes at once and ends: it finds a bound measured
 * on a cold or loaded process too small, and must not be refused for it. Sustained overload never
 * ends: a floor high enough for a burst is, at the rate the process answers, more queue than the
 * latency goal allows (512 in flight at 3,000 answers/s is 170 ms of waiting). The two differ in
 * age, so the floor goes with the age of the pressure. From the first arrival that finds the
 * measured bound taken (the pressure's episode starts), the floor applies for `youngMs`, and after
 * that for as long as no more arrivals than the floor have found the bound taken: a burst on a
 * loaded machine reaches the bound spread over more than a second (700 ms was seen with 500
 * creates on 2 busy cores), but is no larger for it, while sustained overload brings that many in
 * a fraction of a second. Once the episode is old, only the measured bound admits, and the excess
 * is refused. The episode ends when an arrival finds room under the measured bound and none has
 * found it taken for BURST_QUIET_MS, or when its owner says so (`end`, its queue drained): the
 * next burst gets the floor again. Under sustained overload nearly every arrival finds the bound
 * taken, so the episode does not end by itself; nor does it end across a stall of the process
 * (a long garbage collection, a starved CPU), since the first arrival after it finds the bound
 * still taken.
 *
 * Here, beside AdmissionGate, whose commands in flight it bounds; LedgerBatches (libs/write-side)
 * bounds a ledger's queue with it too, and imports it from here (libs/http cannot import the
 * write side).
 */
export class BurstAllowance {
  private startedAt: number | undefined;
  private lastPressureAt = 0;
  /** Arrivals that found the measured bound taken in this episode. */
  private pressed = 0;

  constructor(
    private readonly limits: BurstLimits,
    private readonly now: () => number,
  ) {}

  /** Whether one more may be let in, `taken` being held now and `measured` the measured bound. */
  admits(taken: number, measured: number): boolean {
    if (taken < measured) {
      if (this.startedAt !== undefined && this.now() - this.lastPressureAt > BURST_QUIET_MS) this.end();
      return true;
    }
    const now = this.now();
    if (this.startedAt === undefined) {
      this.startedAt = now;
      this.pressed = 0;
    }
    this.lastPressureAt = now;
    this.pressed += 1;
    const { floor, youngMs } = this.limits;
    const young = now - this.startedAt <= youngMs || this.pressed <= floor;
    return young && taken < floor;
  }

  /** Ends the episode at once (what it bounded is empty again). */
  end(): void {
    this.startedAt = undefined;
  }
}
