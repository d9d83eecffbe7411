import { hash, randomBytes } from 'node:crypto';
import type { Environment, Payout } from '@payouts/domain';

/**
 * The public payout events (docs/design.md#events-and-ids), kept apart from the internal domain
 * events: a webhook's body is built once, stored, and sent byte for byte on every attempt.
 */
export const PAYOUT_UPDATED = 'payout.updated';
export const PAYOUT_TEST = 'payout.test';
export type WebhookEventType = typeof PAYOUT_UPDATED | typeof PAYOUT_TEST;

/** The `data` of `payout.updated`: docs/webhooks.md's list, with the values Get Payout shows. */
export interface PayoutWebhookData {
  payout_id: string;
  merchant_reference: string;
  customer_id: string | null;
  status: 'paid';
  status_version: number;
  amount: string;
  fee: string;
  total_reserved: string;
  currency: string;
  delivery: 'link' | 'redirect';
  funds_released: boolean;
  receipt_reference: string;
  created_at: string;
  updated_at: string;
}

/**
 * The one event id of a paid payout. Derived from the payout id rather than drawn at random, so
 * that however often the PayoutPaid event reaches the dispatcher (relay or consumer restarted
 * mid-batch), it can only ever name the same event (invariant 4).
 */
export function payoutUpdatedEventId(payoutId: string): string {
  // The one-shot hash (strings are hashed as UTF-8): verify derives this id for every paid payout of the log.
  const digest = hash('sha256', `${PAYOUT_UPDATED}\n${payoutId}`, 'hex');
  // Joined rather than concatenated: join writes one flat string, where `evt_${...}` is a rope over
  // a slice that keeps the whole 64-digit digest alive. verify keeps one id per paid payout, and
  // that was 181 bytes of heap each (with its map entry) instead of 93.
  return ['evt_', digest.slice(0, 32)].join('');
}

/** A test event has no payout behind it: a random id, `evt_test_` (docs/design.md#events-and-ids). */
export function newTestEventId(): string {
  return `evt_test_${randomBytes(16).toString('hex')}`;
}

/** The payout as it was when it was paid, in the webhook's field names and formats. */
export function payoutWebhookData(payout: Payout): PayoutWebhookData {
  if (payout.status !== 'paid') {
    throw new Error(`payout ${payout.payoutId} is ${payout.status}: only a paid payout has a webhook`);
  }
  return {
    payout_id: payout.payoutId,
    merchant_reference: payout.merchantReference,
    customer_id: payout.customerId,
    status: payout.status,
    status_version: payout.statusVersion,
    amount: payout.amount,
    fee: payout.fee,
    total_reserved: payout.totalReserved,
    currency: payout.currency,
    delivery: payout.delivery,
    funds_released: payout.fundsReleased,
    receipt_reference: payout.receiptReference,
    // The read model stores milliseconds; the same normalisation keeps the two views equal.
    created_at: new Date(payout.createdAt).toISOString(),
    updated_at: new Date(payout.updatedAt).toISOString(),
  };
}

/** The exact body of `payout.updated`: type first, so a receiver can check it before reading data. */
export function payoutUpdatedBody(eventId: string, data: PayoutWebhookData): string {
  return JSON.stringify({ type: PAYOUT_UPDATED, id: eventId, data });
}

/** The body of `payout.test`: no payout and no money, only where and when it was sent from. */
export function payoutTestBody(eventId: string, environment: Environment, sentAt: Date): string {
  return JSON.stringify({
    type: PAYOUT_TEST,
    id: eventId,
    data: {
      environment,
      message: 'Test event from the dashboard; do not act on it.',
      sent_at: sentAt.toISOString(),
    },
  });
}
