/**
 * How a recipient is paid. Only the recipient enters these, on the hosted pages; the merchant
 * sees only `selected_method` (the method's name), never the details.
 */
export const RECEIVING_METHODS = ['bank_transfer', 'debit_card', 'wallet'] as const;
export type ReceivingMethod = (typeof RECEIVING_METHODS)[number];

export type ReceivingDetails =
  | {
      method: 'bank_transfer';
      accountHolder: string;
      /** US ABA routing number: 9 digits with a valid checksum. */
      routingNumber: string;
      /** 4 to 17 digits. */
      accountNumber: string;
    }
  | {
      method: 'debit_card';
      cardholderName: string;
      /** 12 to 19 digits passing the Luhn check, spaces removed. */
      cardNumber: string;
      expiryMonth: number;
      /** Four digits. */
      expiryYear: number;
    }
  | {
      method: 'wallet';
      /** An e-mail address (lower-cased) or an E.164 phone number (+ and 8 to 15 digits). */
      walletHandle: string;
    };

export type SimulatedRailOutcome = 'paid' | 'failed' | 'review_required';

/**
 * Sandbox test values (documented in docs/sandbox.md and on the pages): the payout rail simulator
 * answers by the last four digits of the account number, card number or phone number, or by the
 * wallet e-mail's local part. Anything else is paid.
 *
 * | outcome           | account / card / phone ends in | wallet e-mail           |
 * |-------------------|--------------------------------|-------------------------|
 * | `failed`          | `0002`                         | `fail@…`                |
 * | `review_required` | `0003`                         | `review@…`              |
 */
export function simulatedRailOutcome(details: ReceivingDetails): SimulatedRailOutcome {
  const key =
    details.method === 'bank_transfer'
      ? details.accountNumber
      : details.method === 'debit_card'
        ? details.cardNumber
        : details.walletHandle;
  if (key.includes('@')) {
    const local = key.slice(0, key.indexOf('@'));
    if (local === 'fail') return 'failed';
    if (local === 'review') return 'review_required';
    return 'paid';
  }
  if (key.endsWith('0002')) return 'failed';
  if (key.endsWith('0003')) return 'review_required';
  return 'paid';
}

/**
 * A line the recipient (and the merchant's support, if the page shows it) can recognise the
 * details by, without revealing them: only the last four digits, or the wallet e-mail's first
 * character and domain. Never the holder's name.
 */
export function describeReceivingDetails(details: ReceivingDetails): string {
  switch (details.method) {
    case 'bank_transfer':
      return `Bank account ending ${details.accountNumber.slice(-4)}`;
    case 'debit_card':
      return `Debit card ending ${details.cardNumber.slice(-4)}`;
    case 'wallet': {
      const handle = details.walletHandle;
      if (handle.startsWith('+')) return `Wallet phone number ending ${handle.slice(-4)}`;
      const at = handle.lastIndexOf('@');
      return `Wallet ${handle.slice(0, 1)}***${handle.slice(at)}`;
    }
    default: {
      const _never: never = details;
      return _never;
    }
  }
}
