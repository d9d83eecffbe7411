import { isMoneyInput } from '@payouts/domain';
import type { Environment } from '@payouts/domain';
import { ApiError, invalidRequest, numberAsWritten, unstorableTextRefusal } from '@payouts/http';

/** What a checkout create body holds once read (docs/design.md#create-body); the domain checks the rest. */
export interface CreateOrderBody {
  /** The JSON number as the body wrote it, e.g. "10.50"; never a float in arithmetic. */
  amount: string;
  currency: string;
  customer: string;
  product: string | null;
  redirectUrl: string | null;
}

const FIELDS = new Set(['amount', 'currency', 'customer', 'product', 'redirect_url']);
const REDIRECT_URL_MAX = 2048;
const TEXT_MAX = 255;

/**
 * Reads the body of the five create paths: a JSON object with the documented fields only, `amount` a
 * JSON number in plain notation with at most 2 decimals as written (docs/checkout.md),
 * `redirect_url` an absolute https URL (http too in the sandbox). Range, currency, e-mail and text
 * lengths are the order decider's rules.
 */
export function readCreateOrderBody(body: unknown, environment: Environment): CreateOrderBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidRequest('the body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  for (const name of Object.keys(fields)) {
    if (!FIELDS.has(name)) throw invalidRequest(`${name} is not a known field`, name);
  }
  const unstorable = unstorableTextRefusal(fields, 'field');
  if (unstorable) throw unstorable;
  return {
    amount: amountOf(fields.amount, numberAsWritten(fields, 'amount')),
    currency: requiredText(fields.currency, 'currency', 3),
    customer: requiredText(fields.customer, 'customer', TEXT_MAX),
    product: optionalText(fields.product, 'product', TEXT_MAX),
    redirectUrl: redirectUrlOf(fields.redirect_url, environment),
  };
}

/**
 * The amount judged on the number's text in the body, never on the float JSON.parse made of it:
 * 10.049999999999999999 reads as 10.05 and 10.500 as 10.5, and either would then be accepted as
 * an amount the merchant did not write. Refused, never rounded.
 */
function amountOf(value: unknown, written: string | undefined): string {
  const refuse = (message: string) => new ApiError(400, 'invalid_amount', message, 'amount');
  if (value === undefined || value === null) throw refuse('amount is required: a JSON number such as 10.50');
  if (typeof value === 'string') throw refuse('amount must be a JSON number such as 10.50, not a string');
  if (typeof value !== 'number') throw refuse('amount must be a JSON number such as 10.50');
  // Every JSON body comes through the strict JSON parser, which keeps the text: without it the
  // number cannot be judged as written, and guessing from the float is what this rule forbids.
  if (written === undefined) throw new Error('amount: a number whose text was not kept as written');
  if (/[eE]/.test(written)) throw refuse('amount must be written in plain notation, without an exponent');
  if (written.startsWith('-')) throw refuse('amount must be greater than 0');
  const point = written.indexOf('.');
  if (point !== -1 && written.length - point - 1 > 2) {
    throw refuse(
      'amount must have at most 2 decimal places as written (10.50, not 10.500); it is never rounded',
    );
  }
  if (!isMoneyInput(written))
    throw refuse('amount must be a number greater than 0 with at most 2 decimal places');
  return written;
}

function requiredText(value: unknown, name: string, max: number): string {
  if (value === undefined || value === null || value === '')
    throw invalidRequest(`${name} is required`, name);
  if (typeof value !== 'string') throw invalidRequest(`${name} must be a string`, name);
  // The decider counts characters; this only keeps an absurd value from going further.
  if (value.length > max * 2) throw invalidRequest(`${name} must be at most ${max} characters`, name);
  return value;
}

function optionalText(value: unknown, name: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  return requiredText(value, name, max);
}

function redirectUrlOf(value: unknown, environment: Environment): string | null {
  if (value === undefined || value === null) return null;
  const refuse = () =>
    invalidRequest(
      `redirect_url must be an absolute https URL of at most ${REDIRECT_URL_MAX} characters${environment === 'sandbox' ? ' (http is accepted in the sandbox)' : ''}`,
      'redirect_url',
    );
  if (typeof value !== 'string' || value.length > REDIRECT_URL_MAX) throw refuse();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse();
  }
  const schemes = environment === 'sandbox' ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol) || url.hostname === '' || url.username !== '' || url.password !== '') {
    throw refuse();
  }
  return value;
}
