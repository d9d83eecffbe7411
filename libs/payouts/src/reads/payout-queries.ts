import { Inject, Injectable } from '@nestjs/common';
import type { Clock } from '@payouts/clock';
import type { AppConfig } from '@payouts/config';
import { ledgerStreamId, nextSettlementAt, PAYOUT_CURRENCY } from '@payouts/domain';
import type { Environment } from '@payouts/domain';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_MODELS, SQL_CLIENT } from '@payouts/platform';
import { ApiError } from '@payouts/http';
import type { SqlClient } from '@payouts/database';
import type { EventStore } from '@payouts/event-store';
import {
  BALANCE_MAX_LAG_EVENTS,
  PayoutViewsById,
  readPayoutView,
  toBalanceFigures,
  toPayoutMerchantView,
} from '@payouts/read-models';
import type { OwnedPayoutView, PayoutMerchantView, ReadModelClient } from '@payouts/read-models';

export interface ListFilters {
  merchantReference?: string;
  customerId?: string;
  status?: string;
  since?: Date;
  until?: Date;
  limit: number;
  offset: number;
}

export type BalanceAnswer =
  | { available: true; body: Record<string, unknown> }
  | { available: false; body: { currency: 'USD'; available: null; reason: string } };

/** Reads for the payout endpoints, always scoped to the caller's account and environment. */
@Injectable()
export class PayoutQueries {
  private readonly views: PayoutViewsById;

  constructor(
    @Inject(READ_MODELS) private readonly readModels: ReadModelClient,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.views = new PayoutViewsById(db.reads);
  }

  /**
   * Get Payout's read, by id alone, started before the caller is known (the gateway's
   * PrefetchedBesideCredential), for an id already checked to be a payout id.
   */
  prefetchView(payoutId: string): Promise<OwnedPayoutView | null> {
    return this.views.find(payoutId);
  }

  /** The prefetched payout if it is this account's and environment's; 404 otherwise. */
  async ownView(
    prefetched: Promise<unknown> | undefined,
    accountId: string,
    environment: Environment,
  ): Promise<PayoutMerchantView> {
    const owned = (await prefetched) as OwnedPayoutView | null | undefined;
    // Another account's or environment's payout is indistinguishable from no payout.
    if (!owned || owned.accountId !== accountId || owned.environment !== environment) {
      throw new ApiError(404, 'not_found', 'no such payout');
    }
    return owned.view;
  }

  async get(accountId: string, environment: Environment, payoutId: string): Promise<PayoutMerchantView> {
    // A plain SELECT: on the shared read connections, like the credential look-up before it.
    const view = await readPayoutView(this.db.reads, accountId, environment, payoutId);
    // Another account's or environment's payout is indistinguishable from no payout.
    if (!view) throw new ApiError(404, 'not_found', 'no such payout');
    return view;
  }

  /** The payout if this account and environment has it; null otherwise. */
  async find(
    accountId: string,
    environment: Environment,
    payoutId: string,
  ): Promise<PayoutMerchantView | null> {
    return this.get(accountId, environment, payoutId).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    });
  }

  async list(accountId: string, environment: Environment, filters: ListFilters) {
    const where = {
      accountId,
      environment,
      ...(filters.merchantReference !== undefined ? { merchantReference: filters.merchantReference } : {}),
      ...(filters.customerId !== undefined ? { customerId: filters.customerId } : {}),
      ...(filters.status !== undefined ? { status: filters.status } : {}),
      ...(filters.since || filters.until
        ? {
            createdAt: {
              ...(filters.since ? { gte: filters.since } : {}),
              ...(filters.until ? { lt: filters.until } : {}),
            },
          }
        : {}),
    };
    const [total, rows] = await Promise.all([
      this.readModels.payoutListEntry.count({ where }),
      this.readModels.payoutListEntry.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { payoutId: 'desc' }],
        take: filters.limit,
        skip: filters.offset,
      }),
    ]);
    return { total, limit: filters.limit, offset: filters.offset, data: rows.map(toPayoutMerchantView) };
  }

  /**
   * Why the balance cannot be calculated, or null when it can: the account has no ledger here, or
   * its read model trails the ledger by more than BALANCE_MAX_LAG_EVENTS. The ledger's version
   * comes from the event store (a read of no events gives it), the projected one from its row.
   */
  async balanceUnavailableReason(accountId: string, environment: Environment): Promise<string | null> {
    const [ledger, projected] = await Promise.all([
      this.store.readStream(ledgerStreamId(accountId, environment), { toVersion: 0 }),
      this.db.queryPrepared<{ ledger_version: number }>(
        'SELECT ledger_version FROM payout_balances WHERE account_id = $1 AND environment = $2 AND currency = $3',
        [accountId, environment, PAYOUT_CURRENCY],
      ),
    ]);
    if (ledger.version === 0) return 'the account has no ledger in this environment yet';
    if ((projected.rows[0]?.ledger_version ?? 0) < ledger.version - BALANCE_MAX_LAG_EVENTS) {
      return 'the balance is being recalculated; try again shortly';
    }
    return null;
  }

  async balance(accountId: string, environment: Environment): Promise<BalanceAnswer> {
    const unavailable = (reason: string): BalanceAnswer => ({
      available: false,
      body: { currency: 'USD', available: null, reason },
    });
    const reason = await this.balanceUnavailableReason(accountId, environment);
    if (reason) return unavailable(reason);
    const row = await this.readModels.payoutBalance.findUnique({
      // Payouts draw on the USD ledger only.
      where: { accountId_environment_currency: { accountId, environment, currency: PAYOUT_CURRENCY } },
    });
    if (!row || row.feePerPayout === null || row.minPayout === null || row.maxPayout === null) {
      return unavailable('payout limits are not configured for this account');
    }
    const figures = toBalanceFigures(row);
    return {
      available: true,
      body: {
        currency: figures.currency,
        limits: {
          fee_per_payout: row.feePerPayout.toFixed(2),
          min_payout: row.minPayout.toFixed(2),
          max_payout: row.maxPayout.toFixed(2),
          max_open_exposure: row.maxOpenExposure?.toFixed(2) ?? null,
          max_pending_per_customer: row.maxPendingPerCustomer,
        },
        pending: figures.pending,
        matured: figures.matured,
        available_for_new_commitments: figures.available_for_new_commitments,
        merchant_settlement_holds: figures.merchant_settlement_holds,
        customer_payout_holds: figures.customer_payout_holds,
        customer_payouts_settled: figures.customer_payouts_settled,
        retained_target: figures.retained_target,
        estimated_next_settlement: figures.estimated_next_settlement,
        // The environment's clock: a sandbox moved ahead by the operator settles on its own time.
        next_settlement_at: nextSettlementAt(
          this.clock.now(environment),
          this.config.settlementHourUtc,
        ).toISOString(),
      },
    };
  }
}
