import type { Environment } from '@payouts/domain';

/**
 * The settlement rail: whatever moves a merchant's settlement to their bank. A port, like the
 * payout rail, so the built-in simulator (the only adapter) can be replaced without touching the
 * worker. Idempotent per settlement id: paying the same settlement again answers the first answer,
 * so a worker that crashed after asking never pays a settlement twice.
 */
export interface SettlementPayment {
  settlementId: string;
  accountId: string;
  environment: Environment;
  currency: string;
  /** Decimal string with two decimals, greater than 0. */
  amount: string;
}

export type SettlementRailAnswer = { status: 'paid' } | { status: 'failed'; reason: string };

export interface SettlementRail {
  pay(payment: SettlementPayment): Promise<SettlementRailAnswer>;
}

/** A request the rail cannot honour without risking money (the same id with another amount): a bug. */
export class SettlementRailRequestError extends Error {
  override readonly name = 'SettlementRailRequestError';
}

/** Nest token of the SettlementRail. */
export const SETTLEMENT_RAIL = Symbol('SETTLEMENT_RAIL');
