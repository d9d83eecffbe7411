import { randomBytes } from 'node:crypto';
import {
  Environment,
  PAYOUT_EVENT_SCHEMA_VERSIONS,
  PAYOUT_STREAM_TYPE,
  PayoutEvent,
  payoutStreamId,
} from '@payouts/domain';
import type { EventStore, NewEvent } from '@payouts/event-store';
import { newPayoutId } from '@payouts/payouts';

/**
 * Test support: payouts made `paid` by appending their events to the store, as the worker's
 * commands would (without the ledger's settlement, which webhooks never read).
 */
const asNew = (event: PayoutEvent): NewEvent => ({
  type: event.type,
  schemaVersion: PAYOUT_EVENT_SCHEMA_VERSIONS[event.type],
  data: event.data,
});

export { newPayoutId };

/** The events of a new link payout of 10.00 + 0.50 fee. */
export function createdEvent(
  payoutId: string,
  accountId: string,
  environment: Environment,
  at: Date,
): PayoutEvent {
  return {
    type: 'PayoutCreated',
    data: {
      payoutId,
      accountId,
      environment,
      amount: '10.00',
      fee: '0.50',
      totalReserved: '10.50',
      currency: 'USD',
      merchantReference: `ref-${payoutId}`,
      delivery: 'link',
      customerEmail: 'ana@example.com',
      customerId: null,
      returnUrl: null,
      description: null,
      caseReference: null,
      originalPaymentId: null,
      source: 'api',
      createdAt: at.toISOString(),
      payoutExpiresAt: new Date(at.getTime() + 7 * 86_400_000).toISOString(),
    },
  };
}

/** A whole paid payout's stream: created, confirmed and paid at `at`. */
export function paidPayoutEvents(
  payoutId: string,
  accountId: string,
  environment: Environment,
  at: Date,
): PayoutEvent[] {
  return [
    createdEvent(payoutId, accountId, environment, at),
    {
      type: 'PayoutConfirmed',
      data: { payoutId, selectedMethod: 'bank_transfer', acceptedAt: at.toISOString() },
    },
    {
      type: 'PayoutPaid',
      data: { payoutId, receiptReference: `rcpt_${payoutId.slice(3)}`, paidAt: at.toISOString() },
    },
  ];
}

/** Appends PayoutConfirmed and PayoutPaid to an existing payout (created through the API, say). */
export async function payExistingPayout(
  store: EventStore,
  payoutId: string,
  at = new Date(),
): Promise<string> {
  const streamId = payoutStreamId(payoutId);
  const { version } = await store.readStream(streamId);
  if (version === 0) throw new Error(`no payout ${payoutId}`);
  const receipt = `rcpt_${randomBytes(8).toString('hex')}`;
  await store.append([
    {
      streamId,
      streamType: PAYOUT_STREAM_TYPE,
      expectedVersion: version,
      events: [
        asNew({
          type: 'PayoutConfirmed',
          data: { payoutId, selectedMethod: 'bank_transfer', acceptedAt: at.toISOString() },
        }),
        asNew({
          type: 'PayoutPaid',
          data: { payoutId, receiptReference: receipt, paidAt: new Date(at.getTime() + 1).toISOString() },
        }),
      ],
    },
  ]);
  return receipt;
}

/** Appends whole payout streams (created, confirmed, paid), many per transaction. */
export async function appendPaidPayouts(
  store: EventStore,
  accountId: string,
  environment: Environment,
  count: number,
  at = new Date(),
): Promise<string[]> {
  const ids = Array.from({ length: count }, () => newPayoutId());
  for (let i = 0; i < ids.length; i += 100) {
    await store.append(
      ids.slice(i, i + 100).map((payoutId) => ({
        streamId: payoutStreamId(payoutId),
        streamType: PAYOUT_STREAM_TYPE,
        expectedVersion: 'no_stream' as const,
        events: paidPayoutEvents(payoutId, accountId, environment, at).map(asNew),
      })),
    );
  }
  return ids;
}

/** Appends a payout that ends in another final status, which must give no webhook. */
export async function appendUnpaidPayout(
  store: EventStore,
  accountId: string,
  environment: Environment,
  ending: 'cancelled' | 'expired' | 'failed' | 'review_required' | 'processing',
  at = new Date(),
): Promise<string> {
  const payoutId = newPayoutId();
  const t = at.toISOString();
  const events: PayoutEvent[] = [createdEvent(payoutId, accountId, environment, at)];
  if (ending === 'cancelled') events.push({ type: 'PayoutCancelled', data: { payoutId, cancelledAt: t } });
  else if (ending === 'expired') events.push({ type: 'PayoutExpired', data: { payoutId, expiredAt: t } });
  else {
    events.push({ type: 'PayoutConfirmed', data: { payoutId, selectedMethod: 'wallet', acceptedAt: t } });
    if (ending === 'failed')
      events.push({ type: 'PayoutFailed', data: { payoutId, reason: 'declined', failedAt: t } });
    if (ending === 'review_required') {
      events.push({ type: 'PayoutReviewRequired', data: { payoutId, reason: 'under_review', at: t } });
    }
  }
  await store.append([
    {
      streamId: payoutStreamId(payoutId),
      streamType: PAYOUT_STREAM_TYPE,
      expectedVersion: 'no_stream',
      events: events.map(asNew),
    },
  ]);
  return payoutId;
}
