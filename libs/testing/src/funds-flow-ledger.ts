import {
  LEDGER_EVENT_SCHEMA_VERSIONS,
  LEDGER_STREAM_TYPE,
  LedgerEvent,
  ledgerStreamId,
} from '@payouts/domain';
import type { EventStore, NewEvent, PendingEvent } from '@payouts/event-store';
import type { SqlQueryable } from '@payouts/database';
import { projectReadModels } from '@payouts/read-models';

/**
 * A ledger with every event type, in an order that exercises each rule of the balance
 * transactions: a payment with and one without a fee, a payout cancelled and one paid, maturing,
 * a retained target, a settlement that fails and one that is paid. Figures are worked by hand in
 * the specs that use it.
 */
export function fundsFlowEvents(accountId: string, day = '2026-03-10'): LedgerEvent[] {
  const at = (minute: number) => `${day}T10:${String(minute).padStart(2, '0')}:00.000Z`;
  const availableOn = `${day.slice(0, 8)}12T10:00:00.000Z`;
  return [
    {
      type: 'LedgerLimitsSet',
      data: {
        accountId,
        environment: 'sandbox',
        limits: {
          feePerPayout: '0.50',
          minPayout: '1.00',
          maxPayout: '500.00',
          maxOpenExposure: '1000.00',
          maxPendingPerCustomer: 5,
        },
        at: at(1),
      },
    },
    {
      type: 'FundsCredited',
      data: {
        accountId,
        environment: 'sandbox',
        amount: '100.00',
        reference: 'c1',
        reason: 'opening credit',
        at: at(2),
      },
    },
    {
      type: 'PaymentProceedsRecorded',
      data: {
        orderId: 1000001,
        method: 'card',
        gross: '50.00',
        fee: '1.75',
        net: '48.25',
        paidAt: at(3),
        availableOn,
        at: at(3),
      },
    },
    {
      type: 'PaymentProceedsRecorded',
      data: {
        orderId: 1000002,
        method: 'cash',
        gross: '10.00',
        fee: '0.00',
        net: '10.00',
        paidAt: at(4),
        availableOn,
        at: at(4),
      },
    },
    {
      type: 'PayoutFundsReserved',
      data: { payoutId: 'po_a', customerKey: 'k1', amount: '20.00', fee: '0.50', total: '20.50', at: at(5) },
    },
    {
      type: 'PayoutFundsReserved',
      data: { payoutId: 'po_b', customerKey: 'k2', amount: '5.00', fee: '0.50', total: '5.50', at: at(6) },
    },
    {
      type: 'PayoutFundsReleased',
      data: { payoutId: 'po_a', total: '20.50', reason: 'cancelled', at: at(7) },
    },
    { type: 'PayoutFundsSettled', data: { payoutId: 'po_b', total: '5.50', at: at(8) } },
    { type: 'PaymentProceedsMatured', data: { orderId: 1000001, net: '48.25', at: at(9) } },
    { type: 'RetainedTargetSet', data: { amount: '10.00', at: at(10) } },
    {
      type: 'SettlementStarted',
      data: {
        settlementId: 'stl_1',
        amount: '132.75',
        retainedTarget: '10.00',
        trigger: 'daily',
        at: at(11),
      },
    },
    {
      type: 'SettlementFailed',
      data: { settlementId: 'stl_1', amount: '132.75', reason: 'account closed', at: at(12) },
    },
    { type: 'PaymentProceedsMatured', data: { orderId: 1000002, net: '10.00', at: at(13) } },
    {
      type: 'SettlementStarted',
      data: {
        settlementId: 'stl_2',
        amount: '142.75',
        retainedTarget: '10.00',
        trigger: 'manual',
        at: at(14),
      },
    },
    { type: 'SettlementPaid', data: { settlementId: 'stl_2', amount: '142.75', at: at(15) } },
  ];
}

export const toNewEvent = (event: LedgerEvent): NewEvent => ({
  type: event.type,
  schemaVersion: LEDGER_EVENT_SCHEMA_VERSIONS[event.type],
  data: event.data,
});

/** Appends events to the account's sandbox ledger, projected inline as a command's commit does. */
export async function appendLedger(
  store: EventStore,
  accountId: string,
  events: readonly LedgerEvent[],
  options: { inline?: boolean; currency?: string } = {},
): Promise<void> {
  const streamId = ledgerStreamId(accountId, 'sandbox', options.currency);
  const { version } = await store.readStream(streamId);
  await store.append(
    [{ streamId, streamType: LEDGER_STREAM_TYPE, expectedVersion: version, events: events.map(toNewEvent) }],
    options.inline === false
      ? {}
      : {
          inTransaction: (tx: SqlQueryable, pending: PendingEvent[]) =>
            projectReadModels(tx, store, pending, { concurrentStreams: true }),
        },
  );
}
