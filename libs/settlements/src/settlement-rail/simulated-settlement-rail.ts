import type { SqlClient } from '@payouts/database';
import { parseStoredMoney, ZERO_MONEY } from '@payouts/domain';
import {
  SettlementPayment,
  SettlementRail,
  SettlementRailAnswer,
  SettlementRailRequestError,
} from './settlement-rail.port';

export type SimulatedSettlementOutcome = 'paid' | 'failed';

/** Why the simulator fails a settlement when the sandbox outcome says so. */
export const SIMULATED_FAILURE_REASON = 'bank_account_closed';

/**
 * The sandbox's chosen outcome of the simulated settlement rail (migration 0022): `paid` until
 * the operator sets `failed`. Production has no setting: the simulator always pays there.
 */
export class SettlementRailSettings {
  constructor(private readonly db: SqlClient) {}

  async sandboxOutcome(): Promise<SimulatedSettlementOutcome> {
    const { rows } = await this.db.query<{ outcome: SimulatedSettlementOutcome }>(
      `SELECT outcome FROM settlement_rail_settings WHERE environment = 'sandbox'`,
    );
    return rows[0]?.outcome ?? 'paid';
  }

  async setSandboxOutcome(outcome: SimulatedSettlementOutcome): Promise<void> {
    await this.db.query(
      `INSERT INTO settlement_rail_settings (environment, outcome, updated_at) VALUES ('sandbox', $1, now())
       ON CONFLICT (environment) DO UPDATE SET outcome = EXCLUDED.outcome, updated_at = now()`,
      [outcome],
    );
  }
}

interface TransferRow {
  environment: string;
  currency: string;
  amount: string;
  status: 'paid' | 'failed';
  failure_reason: string | null;
}

/**
 * The built-in settlement rail: answers at once, from the sandbox's setting (or `paid` in
 * production), and keeps every answer by settlement id, so asking again answers the same.
 */
export class SimulatedSettlementRail implements SettlementRail {
  constructor(
    private readonly db: SqlClient,
    private readonly settings: SettlementRailSettings,
  ) {}

  async pay(payment: SettlementPayment): Promise<SettlementRailAnswer> {
    const amount = parseStoredMoney(payment.amount);
    if (!amount.gt(ZERO_MONEY))
      throw new SettlementRailRequestError(`settlement ${payment.settlementId} has no amount`);
    const outcome = payment.environment === 'production' ? 'paid' : await this.settings.sandboxOutcome();
    await this.db.query(
      `INSERT INTO settlement_rail_transfers
         (settlement_id, account_id, environment, currency, amount, status, failure_reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (settlement_id) DO NOTHING`,
      [
        payment.settlementId,
        payment.accountId,
        payment.environment,
        payment.currency,
        payment.amount,
        outcome,
        outcome === 'failed' ? SIMULATED_FAILURE_REASON : null,
      ],
    );
    const { rows } = await this.db.query<TransferRow>(
      `SELECT environment, currency, amount::text AS amount, status, failure_reason
         FROM settlement_rail_transfers WHERE settlement_id = $1`,
      [payment.settlementId],
    );
    const transfer = rows[0];
    if (
      !transfer ||
      transfer.environment !== payment.environment ||
      transfer.currency !== payment.currency ||
      !parseStoredMoney(transfer.amount).eq(amount)
    ) {
      throw new SettlementRailRequestError(
        `settlement ${payment.settlementId} was sent before with other terms`,
      );
    }
    return transfer.status === 'paid'
      ? { status: 'paid' }
      : { status: 'failed', reason: transfer.failure_reason ?? SIMULATED_FAILURE_REASON };
  }
}
