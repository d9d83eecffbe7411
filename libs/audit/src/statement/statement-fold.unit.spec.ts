import { LedgerEvent, REASON_NOT_RECORDED } from '@payouts/domain';
import { fundsFlowEvents } from '@payouts/testing';
import type { AuditEvent } from '../feed/audit-feed';
import { storedLedgerEvents } from '../testing/stored-ledger-events';
import {
  READ_SIDE_ARITHMETIC,
  ReadSideArithmetic,
  StatementFindingError,
  StatementFold,
  StatementRequest,
} from './statement-fold';
import { StatementLine } from './statement-line';

const STREAM = 'ledger-acc_flow-sandbox';
const T = (minute: number) => `2026-03-10T10:${String(minute).padStart(2, '0')}:00.000Z`;

const stored = (events: readonly LedgerEvent[]): AuditEvent[] => storedLedgerEvents(STREAM, events);

const request = (from: string, to: string): StatementRequest => ({
  accountId: 'acc_flow',
  environment: 'sandbox',
  currency: 'USD',
  from: new Date(from),
  to: new Date(to),
});

/** The whole statement, as the reader would drive the fold (stopping once it is closed). */
function statement(
  req: StatementRequest,
  events: readonly AuditEvent[],
  readSide: ReadSideArithmetic = READ_SIDE_ARITHMETIC,
): StatementLine[] {
  const fold = new StatementFold(req, readSide);
  const lines: StatementLine[] = [];
  for (const event of events) {
    lines.push(...fold.push(event));
    if (fold.closed) return lines;
  }
  return [...lines, ...fold.finish()];
}

function findingOf(run: () => unknown): StatementFindingError['finding'] {
  try {
    run();
  } catch (error) {
    if (error instanceof StatementFindingError) return error.finding;
    throw error;
  }
  throw new Error('expected a finding');
}

/** [kind, version, type, amount, fee, net, pending, available, holds, settlement holds]. */
const brief = (line: StatementLine) => [
  line.kind,
  line.ledgerVersion,
  line.type,
  line.amount,
  line.fee,
  line.net,
  line.figures.pending,
  line.figures.available_for_new_commitments,
  line.figures.customer_payout_holds,
  line.figures.merchant_settlement_holds,
];

describe('a statement of one ledger, folded from its events', () => {
  const flow = stored(fundsFlowEvents('acc_flow'));

  it('lists every movement between a zero opening and the closing balance, worked by hand', () => {
    const lines = statement(request('2026-03-10', '2026-03-11'), flow);
    expect(lines.map(brief)).toEqual([
      ['opening', 0, null, null, null, null, '0.00', '0.00', '0.00', '0.00'],
      ['movement', 2, 'adjustment', '100.00', '0.00', '100.00', '0.00', '100.00', '0.00', '0.00'],
      ['movement', 3, 'payment', '50.00', '0.00', '50.00', '50.00', '100.00', '0.00', '0.00'],
      ['movement', 3, 'payment_fee', '-1.75', '0.00', '-1.75', '48.25', '100.00', '0.00', '0.00'],
      ['movement', 4, 'payment', '10.00', '0.00', '10.00', '58.25', '100.00', '0.00', '0.00'],
      ['movement', 5, 'payout_reserved', '-20.00', '0.50', '-20.50', '58.25', '79.50', '20.50', '0.00'],
      ['movement', 6, 'payout_reserved', '-5.00', '0.50', '-5.50', '58.25', '74.00', '26.00', '0.00'],
      ['movement', 7, 'payout_released', '20.00', '-0.50', '20.50', '58.25', '94.50', '5.50', '0.00'],
      ['movement', 8, 'payout_paid', '-5.50', '0.00', '0.00', '58.25', '94.50', '0.00', '0.00'],
      ['movement', 9, 'payment_matured', '48.25', '0.00', '0.00', '10.00', '142.75', '0.00', '0.00'],
      ['movement', 10, 'retained_target_set', '0.00', '0.00', '0.00', '10.00', '142.75', '0.00', '0.00'],
      ['movement', 11, 'settlement', '-132.75', '0.00', '-132.75', '10.00', '10.00', '0.00', '132.75'],
      ['movement', 12, 'settlement_failed', '132.75', '0.00', '132.75', '10.00', '142.75', '0.00', '0.00'],
      ['movement', 13, 'payment_matured', '10.00', '0.00', '0.00', '0.00', '152.75', '0.00', '0.00'],
      ['movement', 14, 'settlement', '-142.75', '0.00', '-142.75', '0.00', '10.00', '0.00', '142.75'],
      ['movement', 15, 'settlement_paid', '-142.75', '0.00', '0.00', '0.00', '10.00', '0.00', '0.00'],
      ['closing', 15, null, null, null, null, '0.00', '10.00', '0.00', '0.00'],
    ]);
    expect(lines[lines.length - 1]!.figures).toEqual({
      pending: '0.00',
      available_for_new_commitments: '10.00',
      customer_payout_holds: '0.00',
      merchant_settlement_holds: '0.00',
      matured: '10.00',
      customer_payouts_settled: '5.50',
      retained_target: '10.00',
      estimated_next_settlement: '0.00',
    });
    // The retained target's line is the one where the target and the estimate move.
    const target = lines.find((line) => line.type === 'retained_target_set')!;
    expect([target.figures.retained_target, target.figures.estimated_next_settlement]).toEqual([
      '10.00',
      '132.75',
    ]);
    expect(lines[1]).toMatchObject({
      time: T(2),
      description: 'opening credit',
      transactionId: expect.stringMatching(/^txn_[0-9a-f]{24}$/),
      currency: 'USD',
    });
    expect(lines[0]!.description).toBe(`Opening balance of ${STREAM} at 2026-03-10T00:00:00.000Z`);
  });

  it('opens at the balance before --from (inclusive) and closes before --to (exclusive)', () => {
    const lines = statement(request(T(5), T(11)), flow);
    expect(lines.map((line) => [line.kind, line.ledgerVersion])).toEqual([
      ['opening', 4],
      ['movement', 5],
      ['movement', 6],
      ['movement', 7],
      ['movement', 8],
      ['movement', 9],
      ['movement', 10],
      ['closing', 10],
    ]);
    expect(brief(lines[0]!)).toEqual([
      'opening',
      4,
      null,
      null,
      null,
      null,
      '58.25',
      '100.00',
      '0.00',
      '0.00',
    ]);
    expect(lines[7]!).toMatchObject({ time: T(11), description: `Closing balance of ${STREAM} at ${T(11)}` });
    expect(lines[7]!.figures).toMatchObject({
      available_for_new_commitments: '142.75',
      retained_target: '10.00',
    });
  });

  it("shows a release with its reservation's amount and fee when the reservation is before --from", () => {
    const lines = statement(request(T(7), T(8)), flow);
    expect(lines.map(brief)).toEqual([
      ['opening', 6, null, null, null, null, '58.25', '74.00', '26.00', '0.00'],
      ['movement', 7, 'payout_released', '20.00', '-0.50', '20.50', '58.25', '94.50', '5.50', '0.00'],
      ['closing', 7, null, null, null, null, '58.25', '94.50', '5.50', '0.00'],
    ]);
  });

  it('answers an opening equal to the closing for an empty window, and zeros for a ledger with no events', () => {
    const same = statement(request(T(9), T(9)), flow);
    expect(same.map((line) => [line.kind, line.ledgerVersion])).toEqual([
      ['opening', 8],
      ['closing', 8],
    ]);
    expect(same[0]!.figures).toEqual(same[1]!.figures);
    const none = statement(request('2026-01-01', '2026-12-31'), []);
    expect(none.map(brief)).toEqual([
      ['opening', 0, null, null, null, null, '0.00', '0.00', '0.00', '0.00'],
      ['closing', 0, null, null, null, null, '0.00', '0.00', '0.00', '0.00'],
    ]);
    const afterEverything = statement(request('2026-04-01', '2026-04-02'), flow);
    expect(afterEverything.map((line) => line.ledgerVersion)).toEqual([15, 15]);
  });

  it('reads a schema-1 credit through the upcaster: its description says no reason was recorded', () => {
    const credit = fundsFlowEvents('acc_flow')[1]!;
    const { reason: _reason, ...schema1 } = credit.data as { reason: string };
    const lines = statement(request('2026-03-10', '2026-03-11'), [
      { ...stored([credit])[0]!, schemaVersion: 1, data: schema1 },
    ]);
    expect(lines[1]).toMatchObject({
      type: 'adjustment',
      description: REASON_NOT_RECORDED,
      amount: '100.00',
    });
  });

  it('keeps stream order when a later event carries an earlier time: the window is a run of the stream', () => {
    const events = fundsFlowEvents('acc_flow').slice(0, 4);
    (events[3]!.data as { at: string }).at = T(1); // the second payment, stamped before --from
    const lines = statement(request(T(3), T(30)), stored(events));
    expect(lines.map((line) => [line.kind, line.ledgerVersion, line.type])).toEqual([
      ['opening', 2, null],
      ['movement', 3, 'payment'],
      ['movement', 3, 'payment_fee'],
      ['movement', 4, 'payment'],
      ['closing', 4, null],
    ]);
  });

  it('stops at an event the ledger fold refuses, naming its position', () => {
    const forged: LedgerEvent = {
      type: 'PayoutFundsReleased',
      data: { payoutId: 'po_never', total: '1.00', reason: 'cancelled', at: T(3) },
    };
    const events = stored([...fundsFlowEvents('acc_flow').slice(0, 2), forged]);
    expect(findingOf(() => statement(request('2026-03-10', '2026-03-11'), events))).toEqual({
      kind: 'illegal_transition',
      position: '103',
      streamId: STREAM,
      detail: 'Cannot apply PayoutFundsReleased: no open reservation for po_never',
    });
    const overdraw: LedgerEvent = {
      type: 'PayoutFundsReserved',
      data: {
        payoutId: 'po_big',
        customerKey: 'k',
        amount: '500.00',
        fee: '0.50',
        total: '500.50',
        at: T(3),
      },
    };
    const overdrawn = stored([...fundsFlowEvents('acc_flow').slice(0, 2), overdraw]);
    // Before --from too: the opening balance cannot be established past it.
    expect(findingOf(() => statement(request('2026-03-11', '2026-03-12'), overdrawn))).toMatchObject({
      kind: 'ledger_invariant',
      position: '103',
    });
  });

  it('stops at an unknown schema version and at a gap or a repeat in the versions', () => {
    const events = stored(fundsFlowEvents('acc_flow').slice(0, 3));
    const newer = [events[0]!, { ...events[1]!, schemaVersion: 9 }];
    expect(findingOf(() => statement(request('2026-03-10', '2026-03-11'), newer))).toMatchObject({
      kind: 'unknown_event',
      position: '102',
    });
    const gap = [events[0]!, events[2]!];
    expect(findingOf(() => statement(request('2026-03-10', '2026-03-11'), gap))).toEqual({
      kind: 'version_gap',
      position: '103',
      streamId: STREAM,
      detail: 'expected version 2, read 3',
    });
    const repeat = [events[0]!, events[1]!, events[1]!];
    expect(findingOf(() => statement(request('2026-03-10', '2026-03-11'), repeat))).toMatchObject({
      kind: 'version_duplicate',
    });
  });

  it('reads no further than the first event at or after --to', () => {
    const fold = new StatementFold(request(T(1), T(3)));
    expect(
      flow
        .slice(0, 2)
        .flatMap((event) => fold.push(event))
        .map((line) => line.kind),
    ).toEqual(['opening', 'movement']);
    expect(fold.push(flow[2]!).map((line) => line.kind)).toEqual(['closing']);
    expect(fold.closed).toBe(true);
    expect(fold.push(flow[3]!)).toEqual([]);
    expect(fold.finish()).toEqual([]);
  });

  describe("its checks refuse balance transactions that disagree with the ledger's movement", () => {
    const { transactionsOf } = READ_SIDE_ARITHMETIC;
    const day = request('2026-03-10', '2026-03-11');

    it("an event whose rows do not add up to its effect on the balance (a payment's fee row lost)", () => {
      const broken: ReadSideArithmetic = {
        transactionsOf: (...args) => transactionsOf(...args).filter((row) => row.type !== 'payment_fee'),
      };
      expect(findingOf(() => statement(day, flow, broken))).toEqual({
        kind: 'statement_mismatch',
        position: '103',
        streamId: STREAM,
        detail: "the event's balance transactions do not add up to it",
      });
    });

    it('an event that moves a figure without a line (a credit without its adjustment row)', () => {
      const broken: ReadSideArithmetic = {
        transactionsOf: (streamId, event, version) =>
          event.type === 'FundsCredited' ? [] : transactionsOf(streamId, event, version),
      };
      expect(findingOf(() => statement(day, flow, broken))).toMatchObject({
        kind: 'statement_mismatch',
        position: '102',
        detail: 'FundsCredited moved a figure without a line',
      });
    });

    it('movements whose nets do not take the opening to the closing (a row with a wrong net)', () => {
      const broken: ReadSideArithmetic = {
        transactionsOf: (...args) =>
          transactionsOf(...args).map((row) => (row.type === 'adjustment' ? { ...row, net: '90.00' } : row)),
      };
      expect(findingOf(() => statement(day, flow, broken))).toMatchObject({
        kind: 'statement_mismatch',
        position: '115',
        detail: 'opening pending + available 0.00 + nets 0.00 != closing 10.00',
      });
    });
  });
});
