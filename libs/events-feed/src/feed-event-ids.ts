/**
 * Feed event ids name the stored event they come from, so a cursor (`after`) finds its place in the
 * event store's feed with one stream read and no table of its own:
 * - `evt_po_<24 hex>_<version>`: a payout's event (the payout id without `po_`);
 * - `evt_ord_<order id>_<version>`: an order's event;
 * - `evt_led_<account>_<env>_<currency>_<version>_<n>`: the n-th feed event of a ledger event, the
 *   ledger named by its account (the id without `acct_`), environment (`sbx` or `prd`) and
 *   currency (lower case), so that no two ledgers' events share an id;
 * - `evt_<32 hex>`: the `payout.updated` of a paid payout, whose id is its payout webhook's
 *   (payoutUpdatedEventId), so a merchant de-duplicates across the feed and the webhooks.
 */
export type FeedEventRef =
  | { kind: 'payout'; payoutId: string; version: number }
  | { kind: 'order'; orderId: number; version: number }
  | {
      kind: 'ledger';
      accountId: string;
      environment: 'production' | 'sandbox';
      currency: string;
      version: number;
      index: number;
    }
  | { kind: 'paid-payout'; eventId: string };

export const payoutFeedId = (payoutId: string, version: number): string =>
  `evt_po_${payoutId.slice('po_'.length)}_${version}`;

export const orderFeedId = (orderId: number, version: number): string => `evt_ord_${orderId}_${version}`;

const ENVIRONMENT_CODES = { production: 'prd', sandbox: 'sbx' } as const;

export const ledgerFeedId = (
  ledger: { accountId: string; environment: 'production' | 'sandbox'; currency: string },
  version: number,
  index: number,
): string =>
  `evt_led_${ledger.accountId.slice('acct_'.length)}_${ENVIRONMENT_CODES[ledger.environment]}_${ledger.currency.toLowerCase()}_${version}_${index}`;

const VERSION = '([1-9][0-9]{0,9})';
const PAYOUT = new RegExp(`^evt_po_([0-9a-f]{24})_${VERSION}$`);
const ORDER = new RegExp(`^evt_ord_([1-9][0-9]{0,15})_${VERSION}$`);
const LEDGER = new RegExp(`^evt_led_([0-9a-f]{24})_(prd|sbx)_([a-z]{3})_${VERSION}_(0|[1-9][0-9]{0,2})$`);
const PAID_PAYOUT = /^evt_[0-9a-f]{32}$/;

/** The stored event an id names, or null for anything the feed never hands out. */
export function parseFeedId(id: string): FeedEventRef | null {
  let match = PAYOUT.exec(id);
  if (match) return { kind: 'payout', payoutId: `po_${match[1]}`, version: Number(match[2]) };
  match = ORDER.exec(id);
  if (match) return { kind: 'order', orderId: Number(match[1]), version: Number(match[2]) };
  match = LEDGER.exec(id);
  if (match) {
    return {
      kind: 'ledger',
      accountId: `acct_${match[1]}`,
      environment: match[2] === 'prd' ? 'production' : 'sandbox',
      currency: match[3]!.toUpperCase(),
      version: Number(match[4]),
      index: Number(match[5]),
    };
  }
  return PAID_PAYOUT.test(id) ? { kind: 'paid-payout', eventId: id } : null;
}
