import { createHash, randomBytes } from 'node:crypto';

/**
 * The daily run's settlement id of one ledger: the same in every worker for one ledger and day, so
 * a second worker's run of that day is a StartSettlement the ledger has already seen (it changes
 * nothing) rather than a second settlement.
 */
export function dailySettlementId(ledgerStreamId: string, day: string): string {
  return `stl_${createHash('sha256').update(`${ledgerStreamId}|daily|${day}`).digest('hex').slice(0, 24)}`;
}

/** The operator's run-now: every run is a new settlement. */
export function manualSettlementId(): string {
  return `stl_${randomBytes(12).toString('hex')}`;
}

export const SETTLEMENT_ID = /^stl_[0-9a-f]{24}$/;
