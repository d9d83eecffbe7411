import { SqlQueryable } from '@payouts/database';
import { PayoutMerchantView } from './payout-views';

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', ${ISO_UTC})`;

// Get Payout is the hottest read: one prepared statement whose columns already have the merchant
// view's names and formats (numeric(20,2) as text keeps exactly two decimals). A test holds it
// equal to toPayoutMerchantView over the Prisma row.
const PAYOUT_VIEW_SQL = `SELECT payout_id, status, status_version, amount::text AS amount, fee::text AS fee,
    total_reserved::text AS total_reserved, currency, funds_released, merchant_reference, customer_id, delivery,
    source, case_reference, selected_method, safe_reason, receipt_reference,
    ${iso('created_at')} AS created_at, ${iso('accepted_at')} AS accepted_at,
    ${iso('payout_expires_at')} AS payout_expires_at, ${iso('updated_at')} AS updated_at
  FROM payout_list WHERE payout_id = $1 AND account_id = $2 AND environment = $3`;

/** The payout as its merchant sees it, or null when this account and environment has no such payout. */
export async function readPayoutView(
  db: SqlQueryable,
  accountId: string,
  environment: string,
  payoutId: string,
): Promise<PayoutMerchantView | null> {
  const result = await db.queryPrepared<PayoutMerchantView>(PAYOUT_VIEW_SQL, [
    payoutId,
    accountId,
    environment,
  ]);
  return result.rows[0] ?? null;
}
