import Big from 'big.js';
import { DomainError } from '../kernel/domain-error';

/** An amount of money in USD. Always a big.js decimal, never a JS number. */
export type Money = Big;

/**
 * A private constructor in strict mode: passing a JS number (or calling valueOf/toNumber) throws,
 * so a float can never sneak into an amount. The global Big's settings stay untouched.
 */
const StrictBig = Big();
StrictBig.strict = true;

/** Digits, an optional point with one or two decimals; no sign, exponent, spaces or leading zeros. */
const MONEY_INPUT = /^(0|[1-9][0-9]{0,14})(\.[0-9]{1,2})?$/;

/** Internal strings (events, database columns): any plain decimal, possibly negative. */
const STORED_MONEY = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

export const MAX_MONEY_INTEGER_DIGITS = 15;

export function isMoneyInput(input: unknown): input is string {
  return typeof input === 'string' && MONEY_INPUT.test(input);
}

/** Parses an amount from outside (a request or a command). Refuses anything but a strict string. */
export function parseMoney(input: unknown, param = 'amount'): Money {
  if (typeof input !== 'string') {
    throw new DomainError(
      'invalid_amount',
      `${param} must be a decimal string such as "10.50", not a ${typeof input}`,
      param,
    );
  }
  if (!MONEY_INPUT.test(input)) {
    throw new DomainError(
      'invalid_amount',
      `${param} must be a decimal string with at most ${MAX_MONEY_INTEGER_DIGITS} digits before the point and at most 2 after it, without sign, exponent, spaces or leading zeros`,
      param,
    );
  }
  return new StrictBig(input);
}

/** Parses an amount the service wrote itself; a malformed one is a bug, not a user error. */
export function parseStoredMoney(stored: string): Money {
  if (typeof stored !== 'string' || !STORED_MONEY.test(stored)) {
    throw new Error(`Malformed stored money value: ${JSON.stringify(stored)}`);
  }
  return new StrictBig(stored);
}

/** The one serialisation of money: exactly two decimals. */
export function formatMoney(amount: Money): string {
  return amount.toFixed(2);
}

export const ZERO_MONEY: Money = new StrictBig('0');

export function sumMoney(amounts: readonly Money[]): Money {
  // From the first amount, not from zero: one addition less (the ledger sums after every event).
  return amounts.length === 0 ? ZERO_MONEY : amounts.reduce((total, amount) => total.plus(amount));
}
