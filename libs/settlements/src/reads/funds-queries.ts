import { Inject, Injectable } from '@nestjs/common';
import { currenciesOfRegion, PAYOUT_CURRENCY } from '@payouts/domain';
import type { Environment } from '@payouts/domain';
import { ApiError } from '@payouts/http';
import { READ_MODELS } from '@payouts/platform';
import { toBalanceTransactionView, toSettlementView } from '@payouts/read-models';
import type { ReadModelClient } from '@payouts/read-models';

export interface TransactionFilters {
  limit: number;
  offset: number;
  type?: string;
  currency?: string;
  since?: Date;
  until?: Date;
  settlementId?: string;
  /**
   * Only rows of this status: the dashboard's pending proceeds (`pending`). Not a filter of
   * GET /api/balance/transactions, whose parser never sets it.
   */
  status?: string;
}

export interface SettlementFilters {
  limit: number;
  offset: number;
  status?: string;
  currency?: string;
}

// The id last only so that two currencies' rows of one instant and version keep one order.
const NEWEST_FIRST = [
  { createdAt: 'desc' as const },
  { ledgerVersion: 'desc' as const },
  { eventRow: 'desc' as const },
  { id: 'desc' as const },
];

const createdWithin = (since?: Date, until?: Date) =>
  since || until ? { createdAt: { ...(since ? { gte: since } : {}), ...(until ? { lt: until } : {}) } } : {};

/** Balance transactions and settlements, always scoped to the caller's account and environment. */
@Injectable()
export class FundsQueries {
  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModelClient) {}

  /**
   * The retained target of every ledger the account can have in the environment (USD, the
   * payouts' ledger, first; then the region's other currencies), 0.00 where none is set yet, as
   * the balance read model holds it (what Get Payout Balance and the settlement run read).
   */
  async retainedTargets(
    accountId: string,
    environment: Environment,
    region: string,
  ): Promise<{ currency: string; amount: string }[]> {
    const rows = await this.readModels.payoutBalance.findMany({
      where: { accountId, environment },
      select: { currency: true, retainedTarget: true },
    });
    const stored = new Map(rows.map((row) => [row.currency, row.retainedTarget.toFixed(2)]));
    const currencies = [...new Set([PAYOUT_CURRENCY, ...currenciesOfRegion(region), ...stored.keys()])];
    return currencies.map((currency) => ({ currency, amount: stored.get(currency) ?? '0.00' }));
  }

  async transactions(accountId: string, environment: Environment, filters: TransactionFilters) {
    const where = {
      accountId,
      environment,
      ...(filters.type !== undefined ? { type: filters.type } : {}),
      ...(filters.currency !== undefined ? { currency: filters.currency } : {}),
      ...(filters.settlementId !== undefined ? { includedInSettlement: filters.settlementId } : {}),
      ...(filters.status !== undefined ? { status: filters.status } : {}),
      ...createdWithin(filters.since, filters.until),
    };
    const [total, rows] = await Promise.all([
      this.readModels.balanceTransaction.count({ where }),
      this.readModels.balanceTransaction.findMany({
        where,
        // Newest first; within one instant the later event of the ledger first, then its later row.
        orderBy: NEWEST_FIRST,
        take: filters.limit,
        skip: filters.offset,
      }),
    ]);
    return { total, limit: filters.limit, offset: filters.offset, data: rows.map(toBalanceTransactionView) };
  }

  async settlements(accountId: string, environment: Environment, filters: SettlementFilters) {
    const where = {
      accountId,
      environment,
      ...(filters.status !== undefined ? { status: filters.status } : {}),
      ...(filters.currency !== undefined ? { currency: filters.currency } : {}),
    };
    const [total, rows] = await Promise.all([
      this.readModels.settlement.count({ where }),
      this.readModels.settlement.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { ledgerVersion: 'desc' }, { id: 'desc' }],
        take: filters.limit,
        skip: filters.offset,
      }),
    ]);
    return { total, limit: filters.limit, offset: filters.offset, data: rows.map(toSettlementView) };
  }

  /**
   * One settlement with the balance transactions it covers: the newest `transactionsShown` of them
   * (the API gives its largest page, like every list's) and how many there are; the rest page
   * through GET /api/balance/transactions?settlement_id=.
   */
  async settlement(
    accountId: string,
    environment: Environment,
    settlementId: string,
    transactionsShown: number,
  ) {
    const row = await this.readModels.settlement.findUnique({ where: { id: settlementId } });
    // Another account's or environment's settlement is indistinguishable from no settlement.
    if (!row || row.accountId !== accountId || row.environment !== environment) {
      throw new ApiError(404, 'not_found', 'no such settlement');
    }
    const where = { accountId, environment, includedInSettlement: settlementId };
    const [total, rows] = await Promise.all([
      this.readModels.balanceTransaction.count({ where }),
      this.readModels.balanceTransaction.findMany({
        where,
        orderBy: NEWEST_FIRST,
        take: transactionsShown,
      }),
    ]);
    return {
      ...toSettlementView(row),
      transactions_total: total,
      transactions: rows.map(toBalanceTransactionView),
    };
  }
}
