import { BurstAllowance } from './burst-allowance';

export interface AdmissionLimits {
  /** Commands in flight at start, and what the limit returns to while answers come in time. */
  readonly initial: number;
  /**
   * Never fewer in flight than this, however slow the answers: the floor under sustained
   * overload, so that a few slow windows (a stall) do not shrink the limit to nothing.
   */
  readonly min: number;
  /**
   * At least this many in flight while the pressure is young (`burstMs`, or no more arrivals than
   * this have found the limit taken; `BurstAllowance`), whatever the measured limit: a burst this
   * large is always let in (a merchant's 500 concurrent creates), even on a loaded machine. Never
   * more than `max`.
   */
  readonly burst: number;
  /** How long pressure counts as a burst at least; after it, and past `burst` arrivals, only the measured limit applies. */
  readonly burstMs: number;
  readonly max: number;
  /** Commands answered slower than this on average over a window mean too many are in flight. */
  readonly targetMs: number;
  readonly windowMs: number;
}

export const ADMISSION_LIMITS: AdmissionLimits = Object.freeze({
  // The burst floor: a fresh process lets a merchant's burst of 500 in, and no more at once, so
  // the first second of an overload waits behind no more than one burst (p99 867 -> 415 ms).
  initial: 512,
  // At the ~3,000 answers/s of one hot account on 2 cores, 128 in flight is about 40 ms of
  // waiting: inside the goal for answered latency under overload (p99 under 250 ms) with room for
  // the rest of the request. It is the floor once the pressure is no longer young.
  min: 128,
  // A merchant's burst of 500 concurrent creates gets in even when the limit measured on a loaded
  // machine is lower; held only while the pressure is young (its first second, or its first 512
  // arrivals past the limit), since 512 in flight under sustained overload is about 170 ms of
  // waiting before the rest of the request.
  burst: 512,
  burstMs: 1000,
  max: 16_384,
  // Well inside the goal for answered latency under overload (p99 under 250 ms).
  targetMs: 30,
  windowMs: 100,
});

/** What a window of slow answers keeps of the limit. */
const DECREASE = 0.75;
/** What a window of timely answers adds: back towards `initial` quickly, past it slowly and only when it refused. */
const RECOVER = 0.25;
const INCREASE = 0.05;

/**
 * The process's bound on commands in flight, found by measuring (additive increase,
 * multiplicative decrease on answer time, as TCP finds a link's rate). While answers come within
 * `targetMs`, the limit returns to `initial`, and grows past it only when it refused something;
 * once they come slower, more is in flight than the process gets through in that time, and the
 * limit shrinks (never below `min`) until they do not. A command past the limit is refused at
 * once, before its body is read (503 overloaded, Retry-After), so what the process lets in is
 * answered in about the target time, and the rest costs it almost nothing.
 *
 * A burst is the exception (`BurstAllowance`): while the pressure (arrivals finding the measured
 * limit taken) is young, under `burstMs` old or no more than `burst` arrivals, at least `burst`
 * commands are let in, so a merchant's concurrent creates are never refused for a limit measured
 * on a loaded machine; pressure older and larger than that is sustained overload, and the
 * measured limit alone applies.
 */
export class AdmissionGate {
  private inFlight = 0;
  private current: number;
  private windowStart = 0;
  private answered = 0;
  private answeredMs = 0;
  private refused = false;
  private readonly burst: BurstAllowance;

  constructor(
    private readonly limits: AdmissionLimits = ADMISSION_LIMITS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.current = limits.initial;
    this.burst = new BurstAllowance(
      { floor: Math.min(limits.burst, limits.max), youngMs: limits.burstMs },
      now,
    );
  }

  /** Lets one command in, or says no; every command let in must `leave` once answered. */
  enter(): boolean {
    this.closeWindowIfDue();
    if (!this.burst.admits(this.inFlight, this.current)) {
      this.refused = true;
      return false;
    }
    this.inFlight += 1;
    return true;
  }

  leave(elapsedMs: number): void {
    this.inFlight -= 1;
    this.answered += 1;
    this.answeredMs += elapsedMs;
    // Nothing in flight: whatever pressure there was is over, and the next burst gets its floor.
    if (this.inFlight === 0) this.burst.end();
    this.closeWindowIfDue();
  }

  get limit(): number {
    return this.current;
  }

  get commandsInFlight(): number {
    return this.inFlight;
  }

  private closeWindowIfDue(): void {
    const now = this.now();
    if (now - this.windowStart < this.limits.windowMs) return;
    const { min, max, targetMs } = this.limits;
    if (this.answered > 0 && this.answeredMs / this.answered > targetMs) {
      this.current = Math.max(min, Math.floor(this.current * DECREASE));
    } else if (this.current < this.limits.initial) {
      this.current = Math.min(this.limits.initial, Math.ceil(this.current * (1 + RECOVER)));
    } else if (this.refused) {
      this.current = Math.min(max, this.current + Math.ceil(this.current * INCREASE));
    }
    this.windowStart = now;
    this.answered = 0;
    this.answeredMs = 0;
    this.refused = false;
  }
}
