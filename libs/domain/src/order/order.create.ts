import { formatMoney, Money, parseMoney, parseStoredMoney, ZERO_MONEY } from '../money/money';
import { characterCount, hasUnstorableCharacter, UNSTORABLE_TEXT } from '../kernel/characters';
import { DomainError } from '../kernel/domain-error';
import { isDeliverableEmailAddress } from '../kernel/email-address';
import { addMs } from '../kernel/time';
import { cardAvailableIn, currenciesOfRegion } from './checkout-regions';
import { CreateOrder } from './order.commands';
import { ORDER_METHODS, OrderEvent, OrderMethod } from './order.events';
import { OrderState } from './order.state';

type CreateData = CreateOrder['data'];

/**
 * Text limits of Create Order in characters (docs/design.md#create-body), keyed by the API's
 * parameter name.
 */
export const ORDER_TEXT_LIMITS = { customer: 255, product: 255 } as const;

/** A new checkout order, PENDING until it is paid or its lifetime ends. */
export function decideCreateOrder(data: CreateData, state: OrderState, now: Date): OrderEvent[] {
  if (state.status !== 'none') {
    throw new DomainError('invalid_transition', `Order ${data.orderId} already exists`);
  }
  requireServiceInputs(data);
  const method = methodOf(data.method);
  // Whether the account may offer cards does not depend on the body: the path itself is refused,
  // so a client outside the card regions always learns that first, whatever else it sent.
  if (method === 'card' && !cardAvailableIn(data.region, data.cardRegions)) {
    throw new DomainError(
      'method_not_available',
      `The card method is not available in the account's region (${data.region})`,
    );
  }
  const amount = amountWithin(data.amount, data.minAmount, data.maxAmount);
  const currency = currencyOf(data.currency, data.region);
  const customer = customerOf(data.customer);
  const product = productOf(data.product);
  return [
    {
      type: 'OrderCreated',
      data: {
        orderId: data.orderId,
        accountId: data.accountId,
        environment: data.environment,
        method,
        amount: formatMoney(amount),
        currency,
        customer,
        product,
        redirectUrl: optionalUrl(data.redirectUrl, 'redirect_url'),
        hookUrl: optionalUrl(data.hookUrl, 'hook_url'),
        credentialId: data.credentialId,
        pageTokenHash: data.pageTokenHash,
        createdAt: now.toISOString(),
        expiresAt: addMs(now, data.ttlMs).toISOString(),
      },
    },
  ];
}

// The service makes these itself (ids, hashes, settings): a bad one is a bug, so a plain Error.
function requireServiceInputs(data: CreateData): void {
  if (!Number.isSafeInteger(data.orderId) || data.orderId <= 0) {
    throw new Error(`An order id must be a positive integer, not ${JSON.stringify(data.orderId)}`);
  }
  if (!Number.isSafeInteger(data.ttlMs) || data.ttlMs <= 0) {
    throw new Error(`An order lifetime must be a positive number of ms, not ${JSON.stringify(data.ttlMs)}`);
  }
  requireId(data.accountId, 'accountId');
  requireId(data.credentialId, 'credentialId');
  requireId(data.pageTokenHash, 'pageTokenHash');
}

function requireId(value: unknown, name: string): void {
  if (typeof value !== 'string' || value === '') throw new Error(`An order needs its ${name}`);
}

function methodOf(method: unknown): OrderMethod {
  if (!(ORDER_METHODS as readonly unknown[]).includes(method)) {
    throw new DomainError('invalid_request', `method must be one of ${ORDER_METHODS.join(', ')}`, 'method');
  }
  return method as OrderMethod;
}

function amountWithin(input: unknown, minSetting: string, maxSetting: string): Money {
  const amount = parseMoney(input, 'amount');
  if (!amount.gt(ZERO_MONEY)) {
    throw new DomainError('invalid_amount', 'amount must be greater than 0', 'amount');
  }
  const min = parseStoredMoney(minSetting);
  const max = parseStoredMoney(maxSetting);
  if (min.gt(max)) throw new Error(`Order amount bounds are reversed: ${minSetting} > ${maxSetting}`);
  if (amount.lt(min) || amount.gt(max)) {
    throw new DomainError(
      'invalid_amount',
      `amount must be between ${formatMoney(min)} and ${formatMoney(max)}`,
      'amount',
    );
  }
  return amount;
}

function currencyOf(currency: unknown, region: string): string {
  const accepted = currenciesOfRegion(region);
  if (typeof currency !== 'string' || !accepted.includes(currency)) {
    throw new DomainError(
      'unsupported_currency',
      `currency must be one of ${accepted.join(', ')} for the account's region`,
      'currency',
    );
  }
  return currency;
}

function customerOf(customer: unknown): string {
  if (typeof customer !== 'string' || customer === '') {
    throw new DomainError('invalid_request', 'customer is required', 'customer');
  }
  if (characterCount(customer) > ORDER_TEXT_LIMITS.customer) {
    throw tooLong('customer');
  }
  // The mailer's rule, so a receipt could always be sent to the customer the order names.
  if (!isDeliverableEmailAddress(customer)) {
    throw new DomainError('invalid_request', 'customer is not a valid e-mail address', 'customer');
  }
  return customer;
}

/** The page and the webhook show "" for an order without a product, so the event holds "" too. */
function productOf(product: unknown): string {
  if (product === undefined || product === null) return '';
  if (typeof product !== 'string') {
    throw new DomainError('invalid_request', 'product must be a string', 'product');
  }
  if (characterCount(product) > ORDER_TEXT_LIMITS.product) throw tooLong('product');
  if (hasUnstorableCharacter(product)) throw unstorable('product');
  return product;
}

// Which URLs are acceptable (scheme, length, host) is the HTTP layer's rule, as for payouts'
// return_url; here only what any stored URL must be.
function optionalUrl(url: unknown, param: string): string | null {
  if (url === undefined || url === null) return null;
  if (typeof url !== 'string' || url === '') {
    throw new DomainError('invalid_request', `${param} must be a non-empty string`, param);
  }
  if (hasUnstorableCharacter(url)) throw unstorable(param);
  return url;
}

function tooLong(param: keyof typeof ORDER_TEXT_LIMITS): DomainError {
  return new DomainError(
    'invalid_request',
    `${param} is longer than ${ORDER_TEXT_LIMITS[param]} characters`,
    param,
  );
}

function unstorable(param: string): DomainError {
  return new DomainError('invalid_request', `${param} ${UNSTORABLE_TEXT}`, param);
}
