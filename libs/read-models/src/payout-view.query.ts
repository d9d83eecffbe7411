import { BatchedLookUps, SqlQueryable } from '@payouts/database';
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

/** A payout's merchant view with whose it is: the account and environment that own it. */
export interface OwnedPayoutView {
  readonly accountId: string;
  readonly environment: string;
  readonly view: PayoutMerchantView;
}

type OwnedRow = PayoutMerchantView & {
  t_payout_id: string;
  owner_account_id: string;
  owner_environment: string;
};

/**
 * Get Payout's read, by payout id alone, for a route to start before its caller is authenticated
 * (in the same turn as the credential look-up): the look-ups of every request read in one turn go
 * as one statement (BatchedLookUps). The owner comes with the view, and the caller compares it with
 * the principal: another account's payout is then answered as no payout, never shown.
 */
export class PayoutViewsById {
  private readonly lookUps: BatchedLookUps<OwnedRow>;

  constructor(db: SqlQueryable) {
    this.lookUps = new BatchedLookUps(db, {
      sql: `SELECT t.wanted AS t_payout_id, p.account_id AS owner_account_id,
       p.environment AS owner_environment, ${PAYOUT_VIEW_COLUMNS}
  FROM unnest($1::text[]) AS t(wanted) JOIN payout_list p ON p.payout_id = t.wanted`,
      answers: { rowKey: (row) => String(row['t_payout_id']), paramsKey: (params) => String(params[0]) },
    });
  }

  async find(payoutId: string): Promise<OwnedPayoutView | null> {
    const [row] = await this.lookUps.lookUp([payoutId]);
    if (!row) return null;
    const { t_payout_id: _id, owner_account_id: accountId, owner_environment: environment, ...view } = row;
    return { accountId, environment, view };
  }
}
