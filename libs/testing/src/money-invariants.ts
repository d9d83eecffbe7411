import Big from 'big.js';
import type { SqlQueryable } from '@payouts/database';

/**
 * The money invariants (docs/design.md#invariants, #conservation), read from the balance read model
 * of one ledger (USD unless named): gross proceeds = fees + pending + matured proceeds; funds in =
 * matured proceeds + operator credits = available + customer payout holds + customer payouts
 * settled + merchant settlement holds + settlements paid; available and pending never below zero.
 */
export async function assertMoneyInvariants(
  db: SqlQueryable,
  accountId: string,
  environment: string,
  currency = 'USD',
) {
  const { rows } = await db.query<Record<string, string>>(
    `SELECT funds_in::text, available::text, customer_payout_holds::text AS holds,
            customer_payouts_settled::text AS settled, merchant_settlement_holds::text AS settlement_holds,
            pending::text, gross_proceeds::text AS gross, processing_fees::text AS fees,
            matured_proceeds::text AS matured, operator_credits::text AS credits,
            settlements_paid::text AS settlements_paid
       FROM payout_balances WHERE account_id = $1 AND environment = $2 AND currency = $3`,
    [accountId, environment, currency],
  );
  const row = rows[0];
  if (!row) throw new Error(`no balance for ${accountId}/${environment}/${currency}`);
  const figure = (name: string) => new Big(row[name]!);
  const accountedFor = figure('available')
    .plus(figure('holds'))
    .plus(figure('settled'))
    .plus(figure('settlement_holds'))
    .plus(figure('settlements_paid'));
  expect(accountedFor.toFixed(2)).toBe(figure('funds_in').toFixed(2));
  expect(figure('matured').plus(figure('credits')).toFixed(2)).toBe(figure('funds_in').toFixed(2));
  expect(figure('fees').plus(figure('pending')).plus(figure('matured')).toFixed(2)).toBe(
    figure('gross').toFixed(2),
  );
  expect(figure('available').gte(0)).toBe(true);
  expect(figure('pending').gte(0)).toBe(true);
  return row;
}
