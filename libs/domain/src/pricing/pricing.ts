import Big from 'big.js';
import { formatMoney, Money, parseMoney, parseStoredMoney, ZERO_MONEY } from '../money/money';
import { ORDER_METHODS, OrderMethod } from '../order/order.events';
import { DomainError } from '../kernel/domain-error';
import { addMs, DAY_MS } from '../kernel/time';

/**
 * What an account pays per checkout payment and how long its proceeds take to clear, per method
 * (docs/design.md#proceeds-and-pricing). Percent and fixed are decimal strings; a fee is never a JS number.
 */
export type MethodPrice = { percent: string; fixed: string };
export type AccountPricing = {
  methods: Record<OrderMethod, MethodPrice>;
  clearingDays: Record<OrderMethod, number>;
};

/** Card 2.90% + 0.30 clearing in 2 days; every other method 1.50% + 0.00 clearing in 1 day. */
export const DEFAULT_PRICING: AccountPricing = Object.freeze({
  methods: Object.fromEntries(
    ORDER_METHODS.map((method) => [
      method,
      method === 'card' ? { percent: '2.90', fixed: '0.30' } : { percent: '1.50', fixed: '0.00' },
    ]),
  ) as Record<OrderMethod, MethodPrice>,
  clearingDays: Object.fromEntries(
    ORDER_METHODS.map((method) => [method, method === 'card' ? 2 : 1]),
  ) as Record<OrderMethod, number>,
});

/** At most 100%, at most four decimals ("2.9", "2.90", "0.0125"). */
const PERCENT = /^(100(\.0{1,4})?|[1-9]?[0-9](\.[0-9]{1,4})?)$/;
export const MAX_CLEARING_DAYS = 30;

export type PricingInput = {
  methods?: Partial<Record<string, { percent?: unknown; fixed?: unknown }>>;
  clearingDays?: Partial<Record<string, unknown>>;
};

/**
 * The operator's pricing, checked and normalised: a method left out keeps the default. An unknown
 * method, a percent outside 0-100 or with more than four decimals, a malformed fixed amount or a
 * clearing period that is not a whole number of days from 0 to 30 is refused, never rounded.
 */
export function parsePricing(input: PricingInput): AccountPricing {
  const methods = { ...DEFAULT_PRICING.methods };
  const clearingDays = { ...DEFAULT_PRICING.clearingDays };
  for (const [method, price] of Object.entries(input.methods ?? {})) {
    const known = knownMethod(method, `methods.${method}`);
    if (price === null || typeof price !== 'object') {
      throw new DomainError('invalid_request', `methods.${method} must be an object`, `methods.${method}`);
    }
    const { percent, fixed } = price;
    if (typeof percent !== 'string' || !PERCENT.test(percent)) {
      throw new DomainError(
        'invalid_request',
        `methods.${method}.percent must be a decimal string from 0 to 100 with at most 4 decimals`,
        `methods.${method}.percent`,
      );
    }
    methods[known] = {
      percent: new Big(percent).toFixed(Math.max(2, decimals(percent))),
      fixed: formatMoney(parseMoney(fixed, `methods.${method}.fixed`)),
    };
  }
  for (const [method, days] of Object.entries(input.clearingDays ?? {})) {
    const known = knownMethod(method, `clearing_days.${method}`);
    if (typeof days !== 'number' || !Number.isSafeInteger(days) || days < 0 || days > MAX_CLEARING_DAYS) {
      throw new DomainError(
        'invalid_request',
        `clearing_days.${method} must be a whole number of days from 0 to ${MAX_CLEARING_DAYS}`,
        `clearing_days.${method}`,
      );
    }
    clearingDays[known] = days;
  }
  return { methods, clearingDays };
}

function knownMethod(method: string, param: string): OrderMethod {
  if (!(ORDER_METHODS as readonly string[]).includes(method)) {
    throw new DomainError(
      'invalid_request',
      `${param}: unknown method; one of ${ORDER_METHODS.join(', ')}`,
      param,
    );
  }
  return method as OrderMethod;
}

const decimals = (value: string): number => value.split('.')[1]?.length ?? 0;

export type PaymentCharges = { gross: string; fee: string; net: string; availableOn: string };

/**
 * The fee on a payment, rounded half up to the cent and never above the gross, and the day its net
 * clears: `paidAt` plus the method's clearing days (whole days of 24 hours, on the environment's
 * clock, so the sandbox clock hurries them).
 */
export function paymentCharges(
  pricing: AccountPricing,
  method: OrderMethod,
  grossAmount: string,
  paidAt: Date,
): PaymentCharges {
  const gross: Money = parseStoredMoney(grossAmount);
  const price = pricing.methods[method];
  const uncapped = gross
    .times(parseStoredMoney(price.percent))
    .div('100')
    .plus(parseStoredMoney(price.fixed))
    .round(2, Big.roundHalfUp);
  const fee = uncapped.gt(gross) ? gross : uncapped.lt(ZERO_MONEY) ? ZERO_MONEY : uncapped;
  return {
    gross: formatMoney(gross),
    fee: formatMoney(fee),
    net: formatMoney(gross.minus(fee)),
    availableOn: addMs(paidAt, pricing.clearingDays[method] * DAY_MS).toISOString(),
  };
}
