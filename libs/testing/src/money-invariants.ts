import Big from 'big.js';
import type { SqlQueryable } from '@payouts/database';

/**
 * ARCHITECTURE 2, invariants 1 and 2, read from the balance read model: funds in = available +
 * holds + settled + settlement holds, and available never below zero.
 */
export async function assertMoneyInvariants(db: SqlQueryable, accountId: string, environment: string) {
  const { rows } = await db.query<Record<string, string>>(
    `SELECT funds_in::text, available::text, customer_payout_holds::text AS holds,
            customer_payouts_settled::text AS settled, merchant_settlement_holds::text AS settlement_holds
       FROM payout_balances WHERE account_id = $1 AND environment = $2`,
    [accountId, environment],
  );
  const row = rows[0];
  if (!row) throw new Error(`no balance for ${accountId}/${environment}`);
  const accountedFor = new Big(row.available!)
    .plus(row.holds!)
    .plus(row.settled!)
    .plus(row.settlement_holds!);
  expect(accountedFor.toFixed(2)).toBe(new Big(row.funds_in!).toFixed(2));
  expect(new Big(row.available!).gte(0)).toBe(true);
  return row;
}
