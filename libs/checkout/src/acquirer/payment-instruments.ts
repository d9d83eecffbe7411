import type { OrderInstrument } from '@payouts/domain';
import type { PaymentInstrumentInput } from './acquirer.port';

/** A card's brand from its leading digits (what the page and the order may show). */
export function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(number)) return 'discover';
  return 'card';
}

/**
 * A wallet account as it may be kept: the last four characters, the rest masked. The payer's full
 * account is an identifier of theirs; like a card number it stays out of storage, logs and events.
 */
export function maskWalletAccount(account: string): string {
  const characters = [...account];
  const shown = characters.slice(-4).join('');
  return `${'•'.repeat(Math.min(4, Math.max(characters.length - 4, 0)))}${shown}`;
}

/** What the service keeps of an instrument: brand and last four, or the masked wallet account. */
export function keptInstrument(input: PaymentInstrumentInput): OrderInstrument {
  if (input.kind === 'card')
    return { kind: 'card', brand: cardBrand(input.number), last4: input.number.slice(-4) };
  return { kind: 'wallet', account: maskWalletAccount(input.account) };
}
