import type Big from 'big.js';

/**
 * a + b, without a new Big when either is zero. Most of what is summed is zero (a row moves one or
 * two of the four running balances; a payment moves three of a movement's eleven figures, summed
 * the same way in the domain's addMovements), and a new Big, its digit array and a copy for every
 * zero were about a tenth of a 1M-event replay's allocation (docs/performance.md). Big values are
 * never changed in place, so giving back an operand is safe; a negative zero prints as 0.00 all
 * the same.
 */
export const moneySum = (a: Big, b: Big): Big => (b.c[0] === 0 ? a : a.c[0] === 0 ? b : a.plus(b));

/** A figure as its column takes it (two decimals), with no rounding copy for zero, the commonest. */
export const moneyText = (x: Big): string => (x.c[0] === 0 ? '0.00' : x.toFixed(2));
