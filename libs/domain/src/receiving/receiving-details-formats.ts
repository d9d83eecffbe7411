import { ReceivingDetails } from './receiving-details';

// The formats receiving details must have, checked without messages: by the form parser
// (parse-receiving-details.ts), which words the refusals, and by isReceivingDetails, the vault's
// check of what it stores and reads back.

/** Names longer than this are not names; the bound also keeps one form from filling the vault. */
export const MAX_HOLDER_NAME_LENGTH = 100;
/** RFC 5321's limits on a forward path. */
const MAX_EMAIL_LENGTH = 254;
const MAX_EMAIL_LOCAL_LENGTH = 64;

/** ABA routing number checksum: weights 3, 7, 1 repeated; the sum is a multiple of 10. */
export function isValidAbaRoutingNumber(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  const sum = [...routing].reduce((total, digit, i) => total + Number(digit) * weights[i]!, 0);
  return sum % 10 === 0;
}

/** The Luhn check digit test (ISO/IEC 7812), which catches every single-digit typo. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function isEmailAddress(email: string): boolean {
  if (email.length > MAX_EMAIL_LENGTH) return false;
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  return (
    at > 0 &&
    local.length <= MAX_EMAIL_LOCAL_LENGTH &&
    /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+$/.test(local) &&
    !local.startsWith('.') &&
    !local.endsWith('.') &&
    !local.includes('..') &&
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(domain)
  );
}

/**
 * True when `value` is receiving details as parseReceivingDetails makes them (shape and formats;
 * not the card's expiry, which depends on the time). The vault checks what it stores and what it
 * reads back with it, so nothing malformed reaches the payout rail.
 */
export function isReceivingDetails(value: unknown): value is ReceivingDetails {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const isName = (name: unknown): boolean =>
    typeof name === 'string' &&
    name.length > 0 &&
    name.length <= MAX_HOLDER_NAME_LENGTH &&
    name === name.trim() &&
    !/\p{Cc}/u.test(name);
  const keys = Object.keys(v).sort().join(',');
  switch (v.method) {
    case 'bank_transfer':
      return (
        keys === 'accountHolder,accountNumber,method,routingNumber' &&
        isName(v.accountHolder) &&
        typeof v.routingNumber === 'string' &&
        isValidAbaRoutingNumber(v.routingNumber) &&
        typeof v.accountNumber === 'string' &&
        /^\d{4,17}$/.test(v.accountNumber)
      );
    case 'debit_card':
      return (
        keys === 'cardNumber,cardholderName,expiryMonth,expiryYear,method' &&
        isName(v.cardholderName) &&
        typeof v.cardNumber === 'string' &&
        /^\d{12,19}$/.test(v.cardNumber) &&
        passesLuhn(v.cardNumber) &&
        Number.isInteger(v.expiryMonth) &&
        (v.expiryMonth as number) >= 1 &&
        (v.expiryMonth as number) <= 12 &&
        Number.isInteger(v.expiryYear) &&
        (v.expiryYear as number) >= 2000 &&
        (v.expiryYear as number) <= 2099
      );
    case 'wallet':
      return (
        keys === 'method,walletHandle' &&
        typeof v.walletHandle === 'string' &&
        (/^\+[1-9]\d{7,14}$/.test(v.walletHandle) || isEmailAddress(v.walletHandle))
      );
    default:
      return false;
  }
}
