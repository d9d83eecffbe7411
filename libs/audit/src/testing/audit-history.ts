import type { EventStore, NewEvent, StreamAppend, SubscribeOptions } from '@payouts/event-store';
import { projectReadModels, READ_MODEL_SUBSCRIPTION_ID } from '@payouts/read-models';
import { chainBatch } from '../chain/chain-keeper';
import { CHAIN_SUBSCRIPTION_ID } from '../chain/chain-store';

/**
 * A small but complete history for the audit's tests, appended as the write side appends it (one
 * append per command, each stream at its expected version): a funded ledger and float, a payout
 * paid, a payout cancelled, an order paid with its proceeds matured. Test code only.
 */
export const AT = '2026-03-01T12:00:00.000Z';
export const LEDGER = 'ledger-acc_1-sandbox';
export const FLOAT = 'float-sandbox';

const ev = (type: string, data: unknown, schemaVersion = 1): NewEvent => ({ type, schemaVersion, data });
const at = (
  streamId: string,
  streamType: string,
  expectedVersion: number,
  ...events: NewEvent[]
): StreamAppend => ({
  streamId,
  streamType,
  expectedVersion,
  events,
});

function payoutCreated(payoutId: string, reference: string): NewEvent {
  return ev('PayoutCreated', {
    payoutId,
    accountId: 'acc_1',
    environment: 'sandbox',
    amount: '25.50',
    fee: '1.25',
    totalReserved: '26.75',
    currency: 'USD',
    merchantReference: reference,
    delivery: 'link',
    customerEmail: 'ana@example.com',
    customerId: null,
    returnUrl: null,
    description: 'Refund',
    caseReference: null,
    originalPaymentId: null,
    source: 'api',
    createdAt: AT,
    payoutExpiresAt: '2026-03-08T12:00:00.000Z',
  });
}

/** Create Payout's appends: the payout, its ledger's reservation (after `ledgerVersion`), the reference claim. */
export function createPayout(payoutId: string, reference: string, ledgerVersion: number): StreamAppend[] {
  return [
    at(`payout-${payoutId}`, 'payout', 0, payoutCreated(payoutId, reference)),
    at(
      LEDGER,
      'ledger',
      ledgerVersion,
      ev('PayoutFundsReserved', {
        payoutId,
        customerKey: 'cust_1',
        amount: '25.50',
        fee: '1.25',
        total: '26.75',
        at: AT,
      }),
    ),
    at(
      `merchant-reference-acc_1-sandbox-${reference}`,
      'merchant-reference',
      0,
      ev('MerchantReferenceClaimed', {
        accountId: 'acc_1',
        environment: 'sandbox',
        merchantReference: reference,
        payoutId,
        at: AT,
      }),
    ),
  ];
}

const ORDER = {
  orderId: 1042,
  accountId: 'acc_1',
  environment: 'sandbox',
  method: 'card',
  amount: '100.00',
  currency: 'USD',
  customer: 'ana@example.com',
  product: 'Blue mug',
  redirectUrl: null,
  hookUrl: null,
  credentialId: 'cred_1',
  pageTokenHash: 'hash-page-1',
  createdAt: AT,
  expiresAt: '2026-03-02T12:00:00.000Z',
};

/** Appends the history; returns how many events it wrote (20). The ledger ends at version 8. */
export async function appendHistory(store: EventStore): Promise<number> {
  const appends: StreamAppend[][] = [
    [
      at(
        LEDGER,
        'ledger',
        0,
        ev('LedgerLimitsSet', {
          accountId: 'acc_1',
          environment: 'sandbox',
          limits: {
            feePerPayout: '1.25',
            minPayout: '1.00',
            maxPayout: '5000.00',
            maxOpenExposure: '50000.00',
            maxPendingPerCustomer: 5,
          },
          at: AT,
        }),
        ev(
          'FundsCredited',
          {
            accountId: 'acc_1',
            environment: 'sandbox',
            amount: '100.00',
            reference: 'wire-1',
            reason: 'opening',
            at: AT,
          },
          2,
        ),
      ),
    ],
    [
      at(
        FLOAT,
        'float',
        0,
        ev('FloatToppedUp', { environment: 'sandbox', amount: '1000.00', reference: 'float-1', at: AT }),
      ),
    ],
    createPayout('po_1', 'ref-1', 2),
    [
      at(
        'payout-po_1',
        'payout',
        1,
        ev('PayoutConfirmed', { payoutId: 'po_1', selectedMethod: 'bank_transfer', acceptedAt: AT }),
      ),
    ],
    [
      at(
        FLOAT,
        'float',
        1,
        ev('FloatReserved', { environment: 'sandbox', payoutId: 'po_1', amount: '25.50', at: AT }),
      ),
    ],
    [
      at(
        'payout-po_1',
        'payout',
        2,
        ev('PayoutPaid', { payoutId: 'po_1', receiptReference: 'rcpt-1', paidAt: AT }),
      ),
      at(LEDGER, 'ledger', 3, ev('PayoutFundsSettled', { payoutId: 'po_1', total: '26.75', at: AT })),
      at(
        FLOAT,
        'float',
        2,
        ev('FloatPaidOut', { environment: 'sandbox', payoutId: 'po_1', amount: '25.50', at: AT }),
      ),
    ],
    createPayout('po_2', 'ref-2', 4),
    [
      at('payout-po_2', 'payout', 1, ev('PayoutCancelled', { payoutId: 'po_2', cancelledAt: AT })),
      at(
        LEDGER,
        'ledger',
        5,
        ev('PayoutFundsReleased', { payoutId: 'po_2', total: '26.75', reason: 'cancelled', at: AT }),
      ),
    ],
    [at('order-1042', 'order', 0, ev('OrderCreated', ORDER))],
    [
      at(
        'order-1042',
        'order',
        1,
        ev('OrderPaid', {
          orderId: 1042,
          attempt: 1,
          instrument: { kind: 'card', brand: 'visa', last4: '4242' },
          at: AT,
        }),
      ),
      at(
        LEDGER,
        'ledger',
        6,
        ev('PaymentProceedsRecorded', {
          orderId: 1042,
          method: 'card',
          gross: '100.00',
          fee: '3.20',
          net: '96.80',
          paidAt: AT,
          availableOn: '2026-03-03T12:00:00.000Z',
          at: AT,
        }),
      ),
    ],
    [at(LEDGER, 'ledger', 7, ev('PaymentProceedsMatured', { orderId: 1042, net: '96.80', at: AT }))],
  ];
  let written = 0;
  for (const append of appends) written += (await store.append(append)).events.length;
  return written;
}

/** Runs the chain keeper's batch over everything committed, as the projector would, in one go. */
export async function chainEverything(store: EventStore): Promise<void> {
  await followToEnd(store, CHAIN_SUBSCRIPTION_ID, async (events, tx) => void (await chainBatch(tx, events)));
}

/** The live read-model projector's work (apps/projector) over everything committed, in one go. */
export async function projectEverything(store: EventStore): Promise<void> {
  await followToEnd(store, READ_MODEL_SUBSCRIPTION_ID, (events, tx) => projectReadModels(tx, store, events));
}

/** A feed subscriber with its durable checkpoint, run until it has caught up with the log, then stopped. */
async function followToEnd(
  store: EventStore,
  subscriptionId: string,
  handle: SubscribeOptions['handle'],
): Promise<void> {
  const subscription = store.subscribe({ subscriptionId, pollIntervalMs: 5, handle });
  try {
    await subscription.caughtUp();
  } finally {
    await subscription.stop();
  }
}
