import { passesLuhn } from '@payouts/domain';
import type { PaymentInstrumentInput } from '@payouts/checkout';

export type FormErrors = Record<string, string>;

/** What the payer typed, read and checked; the card number lives only as long as this request. */
export type ReadForm = { instrument: PaymentInstrumentInput; errors?: undefined } | { errors: FormErrors };

/**
 * The card form (`Card number`, `Expiry (MM/YY)`, `Security code`, `Name on card`): a number of
 * 12-19 digits (spaces allowed) passing Luhn, an expiry whose month has not ended on `now`, a 3-4
 * digit code and a name. Any error: the form again, no attempt made.
 */
export function readCardForm(fields: Record<string, string>, now: Date): ReadForm {
  const errors: FormErrors = {};
  const number = (fields.card_number ?? '').replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !passesLuhn(number)) errors.card_number = 'Enter a valid card number';
  const expiry = /^\s*(\d{2})\s*\/\s*(\d{2})\s*$/.exec(fields.expiry ?? '');
  const month = expiry ? Number(expiry[1]) : 0;
  const year = expiry ? 2000 + Number(expiry[2]) : 0;
  const endOfMonth = Date.UTC(year, month, 1); // the first instant after the card's last month
  if (!expiry || month < 1 || month > 12) errors.expiry = 'Enter the expiry as MM/YY';
  else if (endOfMonth <= now.getTime()) errors.expiry = 'This card has expired';
  const securityCode = (fields.security_code ?? '').trim();
  if (!/^\d{3,4}$/.test(securityCode)) errors.security_code = 'Enter the 3 or 4 digit security code';
  const name = (fields.name_on_card ?? '').trim();
  if (name.length < 1 || name.length > 100) errors.name_on_card = 'Enter the name on the card';
  if (Object.keys(errors).length > 0) return { errors };
  return {
    instrument: { kind: 'card', number, expiryMonth: month, expiryYear: year, securityCode, name },
  };
}

/** The wallet form (`Wallet account`): 1-64 printable characters. */
export function readWalletForm(fields: Record<string, string>): ReadForm {
  const account = (fields.wallet_account ?? '').trim();
  if (account.length < 1 || account.length > 64 || !/^[\x20-\x7E]+$/.test(account)) {
    return { errors: { wallet_account: 'Enter your wallet account' } };
  }
  return { instrument: { kind: 'wallet', account } };
}
