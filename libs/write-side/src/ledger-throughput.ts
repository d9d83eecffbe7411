/** Bounded like the aggregate cache: past this many ledgers the least recently measured goes. */
const MAX_LEDGERS = 10_000;
/** Weight of the newest batch in the moving average: about the last ten batches count. */
const SMOOTHING = 0.2;

/**
 * What each ledger can commit per second, estimated from its batches: a full batch's members over
 * the moving average of a batch's cycle (from the end of the one before it, when commands were
 * waiting then, or from its own start: deciding, committing and waiting for the ledger's lock).
 * Under load the batches are full and this is the rate the ledger commits at; with small batches
 * it says more than the ledger has shown, which only loosens the bound of a queue that is short.
 */
export class LedgerThroughput {
  private readonly cycleMs = new Map<string, number>();

  constructor(private readonly maxMembers: number) {}

  record(ledgerId: string, elapsedMs: number): void {
    const previous = this.cycleMs.get(ledgerId);
    this.cycleMs.delete(ledgerId);
    this.cycleMs.set(
      ledgerId,
      previous === undefined ? elapsedMs : previous + SMOOTHING * (elapsedMs - previous),
    );
    if (this.cycleMs.size > MAX_LEDGERS) {
      const oldest = this.cycleMs.keys().next().value;
      if (oldest !== undefined) this.cycleMs.delete(oldest);
    }
  }

  /** 0 for a ledger not measured yet. */
  perSecond(ledgerId: string): number {
    const ms = this.cycleMs.get(ledgerId);
    return ms === undefined ? 0 : (this.maxMembers * 1000) / Math.max(ms, 0.1);
  }
}
