import { PAYOUT_STATUSES, PayoutStatus } from '@payouts/domain';

/** Each payout status as the pages say it (the API's value is shown beside it where it matters). */
export const STATUS_WORDS: Readonly<Record<PayoutStatus, string>> = {
  awaiting_choice: 'Awaiting the recipient',
  processing: 'Processing',
  review_required: 'In review',
  paid: 'Paid',
  cancelled: 'Cancelled',
  expired: 'Expired',
  failed: 'Failed',
};

export function statusWords(status: string): string {
  return (STATUS_WORDS as Record<string, string>)[status] ?? status;
}

/** The status filter's choices: any, then every status in lifecycle order. */
export const STATUS_OPTIONS: readonly (readonly [string, string])[] = [
  ['', 'Any status'],
  ...PAYOUT_STATUSES.map((status) => [status, STATUS_WORDS[status]] as const),
];

/** Money as the API gives it (a decimal string) with its currency. */
export function money(amount: string, currency: string): string {
  return `${amount} ${currency}`;
}
