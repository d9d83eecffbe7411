import { RECEIVING_METHODS, ReceivingDetails, ReceivingMethod } from './receiving-details';
import {
  isEmailAddress,
  isValidAbaRoutingNumber,
  MAX_HOLDER_NAME_LENGTH,
  passesLuhn,
} from './receiving-details-formats';

/**
 * Validation of what a recipient types into the hosted pages. Pure: the form and the time come in
 * as values. Every refusal carries a message for the recipient, keyed by the form field's name,
 * so the page can show it next to that field. Nothing here echoes the value back: the messages
 * may end up in logs or analytics, the details must not.
 */
export type ParsedReceivingDetails =
  { ok: true; details: ReceivingDetails } | { ok: false; errors: Record<string, string> };

/** The form field names the pages post, per method. */
export const RECEIVING_DETAILS_FIELDS = {
  bank_transfer: ['account_holder', 'routing_number', 'account_number'],
  debit_card: ['cardholder_name', 'card_number', 'expiry'],
  wallet: ['wallet_handle'],
} as const satisfies Record<ReceivingMethod, readonly string[]>;

/** A card expiring further ahead than this is a typing mistake (cards are issued for 3 to 10 years). */
const MAX_CARD_YEARS_AHEAD = 20;

export function isReceivingMethod(value: unknown): value is ReceivingMethod {
  return typeof value === 'string' && (RECEIVING_METHODS as readonly string[]).includes(value);
}

export function parseReceivingDetails(
  method: string,
  form: Record<string, string | undefined>,
  now: Date,
): ParsedReceivingDetails {
  if (!isReceivingMethod(method)) {
    return { ok: false, errors: { method: 'Choose how you want to receive the money.' } };
  }
  switch (method) {
    case 'bank_transfer':
      return parseBankTransfer(form);
    case 'debit_card':
      return parseDebitCard(form, now);
    case 'wallet':
      return parseWallet(form);
    default: {
      const _never: never = method;
      return _never;
    }
  }
}

function parseBankTransfer(form: Record<string, string | undefined>): ParsedReceivingDetails {
  const errors: Record<string, string> = {};
  const accountHolder = holderName(
    form.account_holder,
    'account_holder',
    "the account holder's name",
    errors,
  );

  const routing = trimmed(form.routing_number);
  if (routing === '') errors.routing_number = 'Enter the routing number.';
  else if (!/^\d{9}$/.test(routing)) errors.routing_number = 'The routing number must be 9 digits.';
  else if (!isValidAbaRoutingNumber(routing)) {
    errors.routing_number = 'This routing number is not valid. Check it and try again.';
  }

  const account = trimmed(form.account_number);
  if (account === '') errors.account_number = 'Enter the account number.';
  else if (!/^\d{4,17}$/.test(account)) errors.account_number = 'The account number must be 4 to 17 digits.';

  if (Object.keys(errors).length > 0 || accountHolder === undefined) return { ok: false, errors };
  return {
    ok: true,
    details: { method: 'bank_transfer', accountHolder, routingNumber: routing, accountNumber: account },
  };
}

function parseDebitCard(form: Record<string, string | undefined>, now: Date): ParsedReceivingDetails {
  const errors: Record<string, string> = {};
  const cardholderName = holderName(form.cardholder_name, 'cardholder_name', 'the name on the card', errors);

  // Cards are printed in groups; people copy them with spaces or dashes.
  const card = trimmed(form.card_number).replace(/[\s-]/g, '');
  if (card === '') errors.card_number = 'Enter the card number.';
  else if (!/^\d{12,19}$/.test(card)) errors.card_number = 'The card number must be 12 to 19 digits.';
  else if (!passesLuhn(card)) errors.card_number = 'This card number is not valid. Check it and try again.';

  const expiry = parseExpiry(form.expiry, now);
  if ('error' in expiry) errors.expiry = expiry.error;

  if (Object.keys(errors).length > 0 || cardholderName === undefined || 'error' in expiry) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    details: {
      method: 'debit_card',
      cardholderName,
      cardNumber: card,
      expiryMonth: expiry.month,
      expiryYear: expiry.year,
    },
  };
}

/**
 * MM/YY. A card is good through the last day of its expiry month, so only a month before the
 * current one (in UTC, the service's time) is in the past.
 */
function parseExpiry(
  raw: string | undefined,
  now: Date,
): { month: number; year: number } | { error: string } {
  const value = trimmed(raw);
  if (value === '') return { error: 'Enter the expiry date as MM/YY.' };
  const match = /^(\d{1,2})\s*\/\s*(\d{2})$/.exec(value);
  if (!match) return { error: 'Enter the expiry date as MM/YY, for example 08/29.' };
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  if (month < 1 || month > 12) return { error: 'The expiry month must be from 01 to 12.' };
  const monthsFromNow = (year - now.getUTCFullYear()) * 12 + (month - (now.getUTCMonth() + 1));
  if (monthsFromNow < 0) return { error: 'This card has expired. Use a card that is still valid.' };
  if (monthsFromNow > MAX_CARD_YEARS_AHEAD * 12) {
    return { error: 'Check the expiry date: it is too far in the future.' };
  }
  return { month, year };
}

function parseWallet(form: Record<string, string | undefined>): ParsedReceivingDetails {
  const value = trimmed(form.wallet_handle);
  if (value === '') {
    return {
      ok: false,
      errors: { wallet_handle: 'Enter the e-mail address or phone number of your wallet.' },
    };
  }
  if (value.includes('@')) {
    const email = value.toLowerCase();
    if (!isEmailAddress(email)) {
      return {
        ok: false,
        errors: { wallet_handle: 'Enter a valid e-mail address, such as name@example.com.' },
      };
    }
    return { ok: true, details: { method: 'wallet', walletHandle: email } };
  }
  // People write phone numbers with spaces, dashes, dots and brackets; E.164 has none of them.
  const phone = value.replace(/[\s\-.()]/g, '');
  if (!/^\+[1-9]\d{7,14}$/.test(phone)) {
    return {
      ok: false,
      errors: {
        wallet_handle:
          'Enter an e-mail address, or a phone number in international format starting with + and the country code, such as +14155550100.',
      },
    };
  }
  return { ok: true, details: { method: 'wallet', walletHandle: phone } };
}

/**
 * Trimmed, inner runs of white space made one space. Refused: empty, too long, control
 * characters (they would break the rail's files and the pages), or no letter at all (a number typed
 * into the wrong field).
 */
function holderName(
  raw: string | undefined,
  field: string,
  what: string,
  errors: Record<string, string>,
): string | undefined {
  const name = trimmed(raw).replace(/\s+/g, ' ');
  if (name === '') {
    errors[field] = `Enter ${what}.`;
    return undefined;
  }
  if (name.length > MAX_HOLDER_NAME_LENGTH) {
    errors[field] = `Shorten ${what} to at most ${MAX_HOLDER_NAME_LENGTH} characters.`;
    return undefined;
  }
  if (/\p{Cc}/u.test(name) || !/\p{L}/u.test(name)) {
    errors[field] = `Enter ${what} in letters, as the bank knows it.`;
    return undefined;
  }
  return name;
}

function trimmed(value: string | undefined): string {
  return typeof value === 'string' ? value.trim() : '';
}
