import { Money, parseStoredMoney } from '@payouts/domain';

/**
 * Amounts as the audit's tallies (ledger-tally.ts, float-tally.ts) hold them: exact BigInt cents,
 * read from the decimal text the events carry and given back to the domain as its Money.
 */

/** Unsigned, at most two decimals: what the service writes. Anything else is left to the domain. */
const PLAIN_AMOUNT = /^(0|[1-9][0-9]*)(?:\.([0-9]{1,2}))?$/;

/** Exact cents of a stored amount this fold takes, else null. */
export function cents(value: unknown): bigint | null {
  if (typeof value !== 'string') return null;
  const match = PLAIN_AMOUNT.exec(value);
  if (match === null) return null;
  const fraction = match[2] === undefined ? 0n : BigInt(match[2].padEnd(2, '0'));
  return BigInt(match[1]!) * 100n + fraction;
}

/** Cents as the domain's Money (parsed from the same decimal text the events carry). */
export function money(amount: bigint): Money {
  const sign = amount < 0n ? '-' : '';
  const magnitude = amount < 0n ? -amount : amount;
  return parseStoredMoney(`${sign}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, '0')}`);
}
