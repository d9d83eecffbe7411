import { SqlQueryable } from '@payouts/database';
import { PayoutMerchantView } from './payout-views';

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', ${ISO_UTC})`;

// Get Payout is the hottest read: one prepared statement whose columns already have the merchant
// view's names and formats (numeric(20,2) as text keeps exactly two decimals). A test holds it
// equal to toPayoutMerchantView over the Prisma row.
const PAYOUT_VIEW_COLUMNS = `payout_id, status, status_version, amount::text AS amount, fee::text AS fee,
    total_reserved::text AS total_reserved, currency, funds_released, merchant_reference, customer_id, delivery,
    source, case_reference, selected_method, safe_reason, receipt_reference,
    ${iso('created_at')} AS created_at, ${iso('accepted_at')} AS accepted_at,
    ${iso('payout_expires_at')} AS payout_expires_at, ${iso('updated_at')} AS updated_at`;
// The payout by its primary key alone, fenced (OFFSET 0) so that the account and environment are
// checked on that one row and can never steer the plan: left to choose, a generic plan made while
// the table was small (or never analysed) picked an (account_id, environment, …) index and read
// every payout of the account for each Get (measured: 89 rows per Get).
const ONE_PAYOUT = (payoutIdParam: string) =>
  `(SELECT * FROM payout_list WHERE payout_id = ${payoutIdParam} OFFSET 0) AS p`;

const PAYOUT_VIEW_SQL = `SELECT ${PAYOUT_VIEW_COLUMNS}
  FROM ${ONE_PAYOUT('$1')} WHERE p.account_id = $2 AND p.environment = $3`;

/**
 * The same view as readPayoutView, as a read beside the credential look-up (accounts'
 * ReadBesideCredential): payout id in `t.p1`, the account and environment the credential's own.
 */
export const PAYOUT_VIEW_BESIDE_CREDENTIAL_SQL = `SELECT ${PAYOUT_VIEW_COLUMNS}
  FROM ${ONE_PAYOUT('t.p1')} WHERE p.account_id = c.account_id AND p.environment = c.environment`;

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
