import type { LedgerEvent } from '@payouts/domain';
import { storedLedgerEvents } from '../testing/stored-ledger-events';
import type { FoldedEvent } from './aggregate-folds';
import type { Finding } from './findings';
import { FoldPass } from './fold-pass';
import { MAX_HELD_EVENTS } from './stream-order';

const AT = '2026-03-01T12:00:00.000Z';
const limits: LedgerEvent = {
  type: 'LedgerLimitsSet',
  data: {
    accountId: 'acc',
    environment: 'sandbox',
    limits: {
      feePerPayout: '0.50',
      minPayout: '1.00',
      maxPayout: '500.00',
      maxOpenExposure: '1000.00',
      maxPendingPerCustomer: 5,
    },
    at: AT,
  },
};
const credit: LedgerEvent = {
  type: 'FundsCredited',
  data: { accountId: 'acc', environment: 'sandbox', amount: '100.00', reference: 'c', reason: 'r', at: AT },
};
const reserved = (payoutId: string, total: string): LedgerEvent => ({
  type: 'PayoutFundsReserved',
  data: { payoutId, customerKey: 'k', amount: total, fee: '0.00', total, at: AT },
});
const released = (payoutId: string, total: string): LedgerEvent => ({
  type: 'PayoutFundsReleased',
  data: { payoutId, total, reason: 'cancelled', at: AT },
});
const settled = (payoutId: string, total: string): LedgerEvent => ({
  type: 'PayoutFundsSettled',
  data: { payoutId, total, at: AT },
});

describe('a fold pass', () => {
  let found: { index: number; finding: Finding }[];
  let pass: FoldPass;
  let index: number;
  const accept = (events: readonly FoldedEvent[]) => events.forEach((event) => pass.accept(event, index++));
  beforeEach(() => {
    found = [];
    pass = new FoldPass((finding, at) => found.push({ index: at, finding }));
    index = 0;
  });

  it('stops a stream at its first refusal and counts its later events instead; other streams go on', () => {
    // Ledger a releases po_a twice and settles po_b twice: without the stop, two refusals.
    const a = storedLedgerEvents('ledger-acc_a-sandbox', [
      limits,
      credit,
      reserved('po_a', '10.00'),
      reserved('po_b', '20.00'),
      released('po_a', '10.00'),
      released('po_a', '10.00'),
      settled('po_b', '20.00'),
      settled('po_b', '20.00'),
    ]);
    // Ledger b overdraws at its last event: a finding with nothing after it.
    const b = storedLedgerEvents('ledger-acc_b-sandbox', [limits, credit, reserved('po_c', '150.00')]);
    accept([...a.slice(0, 6), b[0]!, b[1]!, ...a.slice(6), b[2]!]);
    expect(found.map(({ index, finding }) => [index, finding.kind, finding.streamId])).toEqual([
      [5, 'illegal_transition', 'ledger-acc_a-sandbox'],
      [10, 'ledger_invariant', 'ledger-acc_b-sandbox'],
    ]);
    expect(pass.finish()).toEqual([{ streamId: 'ledger-acc_a-sandbox', uncheckedEvents: 2, unpaired: 0 }]);
    expect(found).toHaveLength(2);
  });

  it("reports an event the domain's upcast refuses as unknown_event, in the domain's words, and stops its stream", () => {
    const event = (
      streamId: string,
      streamType: string,
      version: number,
      eventType: string,
      schemaVersion = 1,
    ) => ({
      position: String(version),
      transactionId: String(version),
      streamId,
      streamType,
      streamVersion: version,
      eventType,
      schemaVersion,
      data: {},
    });
    accept([
      event('payout-po_x', 'payout', 1, 'PayoutTeleported'),
      event('payout-po_x', 'payout', 2, 'PayoutConfirmed'),
      event('float-sandbox', 'float', 1, 'FloatToppedUp', 2),
    ]);
    expect(
      found.map(({ index, finding }) => [index, finding.kind, finding.streamId, finding.detail]),
    ).toEqual([
      [0, 'unknown_event', 'payout-po_x', 'unknown payout event type PayoutTeleported'],
      [
        2,
        'unknown_event',
        'float-sandbox',
        'float event FloatToppedUp has schema version 2; this build reads 1',
      ],
    ]);
    expect(pass.finish()).toEqual([{ streamId: 'payout-po_x', uncheckedEvents: 1, unpaired: 0 }]);
  });

  it('gives a version gap the count of the events its stream held', () => {
    const events = storedLedgerEvents('ledger-acc_a-sandbox', [
      limits,
      credit,
      reserved('po_a', '10.00'),
      released('po_a', '10.00'),
      reserved('po_b', '20.00'),
    ]);
    accept([...events.slice(0, 2), ...events.slice(3)]);
    expect(found).toEqual([]);
    const consequences = pass.finish();
    expect(found).toEqual([
      {
        index: 2,
        finding: {
          kind: 'version_gap',
          position: events[3]!.position,
          streamId: 'ledger-acc_a-sandbox',
          detail: 'version 4 follows version 2',
        },
      },
    ]);
    expect(consequences).toEqual([{ streamId: 'ledger-acc_a-sandbox', uncheckedEvents: 2, unpaired: 0 }]);
  });

  it('reports a stream that fills the held events once, and counts the rest of it', () => {
    const early = (version: number): FoldedEvent => ({
      position: String(version),
      transactionId: String(version),
      streamId: 'payout-po_x',
      streamType: 'payout',
      streamVersion: version,
      eventType: 'PayoutConfirmed',
      schemaVersion: 1,
      data: {},
    });
    // Version 1 never comes: versions 2, 3, ... wait until the held events are full.
    for (let version = 2; version <= MAX_HELD_EVENTS + 4; version += 1) pass.accept(early(version), index++);
    expect(found.map(({ index, finding }) => [index, finding.kind, finding.position])).toEqual([
      [MAX_HELD_EVENTS, 'version_gap', String(MAX_HELD_EVENTS + 2)],
    ]);
    expect(pass.finish()).toEqual([
      { streamId: 'payout-po_x', uncheckedEvents: MAX_HELD_EVENTS + 2, unpaired: 0 },
    ]);
    expect(found).toHaveLength(1);
  });
});
