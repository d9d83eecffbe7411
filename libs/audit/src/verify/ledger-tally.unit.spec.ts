import { evolveLedger, initialLedgerState, LedgerEvent, LedgerState, Money } from '@payouts/domain';
import { Rng, tallyAgreesWithDomain } from '../testing/tally-agreement';
import { LedgerTally } from './ledger-tally';
import { cents, money } from './tally-cents';

const HISTORIES = 400;
const STEPS = 40;
const AT = '2026-03-01T12:00:00.000Z';
const PAYOUTS = Array.from({ length: 12 }, (_, i) => `po_${i}`);
const SETTLEMENTS = Array.from({ length: 5 }, (_, i) => `stl_${i}`);
/** What a forged or buggy event may carry where an amount belongs: the domain reads some of these. */
const ODD_AMOUNTS: unknown[] = ['1.005', '-5.00', '-0', 'abc', '', '1e2', ' 7', '01', '0.', 5, null];

function amount(rng: Rng, maxWhole: number): unknown {
  if (rng.chance(0.06)) return rng.pick(ODD_AMOUNTS);
  return `${rng.int(0, maxWhole)}.${String(rng.int(0, 99)).padStart(2, '0')}`;
}

/** `percent` of an amount, rounded down to the cent. */
function share(of: Money, percent: number): string {
  return money((cents(of.toFixed(2))! * BigInt(percent)) / 100n).toFixed(2);
}

/** Mostly events the ledger can take, next to duplicates, wrong totals and odd values. */
function randomEvent(rng: Rng, state: LedgerState): LedgerEvent {
  const open = [...state.openReservations.entries()];
  const pending = [...state.pendingPayments.entries()];
  const settlements = [...state.openSettlements.entries()];
  const roll = rng.next();
  const wrong = rng.chance(0.15);
  if (roll < 0.04) return { type: 'LedgerLimitsSet', data: { limits: null } } as unknown as LedgerEvent;
  if (roll < 0.16) return event('FundsCredited', { amount: amount(rng, 400), reference: 'w', reason: 'r' });
  if (roll < 0.32) {
    const customerKey = rng.chance(0.03) ? 7 : rng.pick(['cust_1', 'cust_2', 'cust_3']);
    return event('PayoutFundsReserved', {
      payoutId: rng.pick(PAYOUTS),
      customerKey,
      total: amount(rng, 150),
    });
  }
  if (roll < 0.48) {
    const [payoutId, reservation] =
      open.length > 0 && rng.chance(0.85) ? rng.pick(open) : [rng.pick(PAYOUTS)];
    const total = reservation && !wrong ? reservation.total.toFixed(2) : amount(rng, 150);
    const type = rng.chance(0.5) ? 'PayoutFundsReleased' : 'PayoutFundsSettled';
    return event(type, { payoutId, total, reason: 'cancelled' });
  }
  if (roll < 0.64) {
    const gross = String(amount(rng, 300));
    const fee = rng.pick(['0.30', '1.15', '0.00']);
    const net =
      cents(gross) !== null && cents(gross)! >= cents(fee)! ? money(cents(gross)! - cents(fee)!) : null;
    return event('PaymentProceedsRecorded', {
      orderId: rng.chance(0.03) ? 'o-1' : rng.int(0, 15),
      method: 'card',
      gross,
      fee,
      net: net === null || wrong ? amount(rng, 300) : net.toFixed(2),
      paidAt: AT,
      availableOn: AT,
    });
  }
  if (roll < 0.76) {
    const [orderId, payment] = pending.length > 0 && rng.chance(0.85) ? rng.pick(pending) : [rng.int(0, 15)];
    return event('PaymentProceedsMatured', {
      orderId,
      net: payment && !wrong ? payment.net.toFixed(2) : amount(rng, 300),
    });
  }
  if (roll < 0.86) {
    return event('SettlementStarted', {
      settlementId: rng.pick(SETTLEMENTS),
      amount: rng.chance(0.7) ? share(state.available, rng.int(0, 100)) : amount(rng, 300),
      retainedTarget: '0.00',
      trigger: 'daily',
    });
  }
  if (roll < 0.96) {
    const [settlementId, held] =
      settlements.length > 0 && rng.chance(0.85) ? rng.pick(settlements) : [rng.pick(SETTLEMENTS)];
    const type = rng.chance(0.6) ? 'SettlementPaid' : 'SettlementFailed';
    return event(type, {
      settlementId,
      amount: held && !wrong ? held.toFixed(2) : amount(rng, 300),
      reason: 'x',
    });
  }
  if (roll < 0.98) return { type: 'FundsCredited', data: null } as unknown as LedgerEvent;
  return event('RetainedTargetSet', { amount: amount(rng, 300) });
}

function event(type: LedgerEvent['type'], data: Record<string, unknown>): LedgerEvent {
  return { type, data: { ...data, at: AT } } as unknown as LedgerEvent;
}

/** Whether the tally is meant to take this event when the domain does: plain amounts and ids. */
function plainValues(e: LedgerEvent): boolean {
  const data = e.data as Record<string, unknown> | null;
  if (data === null) return false;
  return Object.entries(data).every(([key, value]) =>
    ['amount', 'total', 'gross', 'fee', 'net'].includes(key)
      ? cents(value) !== null
      : key === 'orderId'
        ? typeof value === 'number'
        : key !== 'customerKey' || typeof value === 'string',
  );
}

/** Everything evolveLedger's state holds, comparable with toEqual (amounts by value). */
function view(state: LedgerState) {
  const m = (value: Money) => value.toString();
  return {
    limits: state.limits,
    sums: [
      state.fundsIn,
      state.available,
      state.customerPayoutHolds,
      state.customerPayoutsSettled,
      state.merchantSettlementHolds,
      state.grossProceeds,
      state.processingFees,
      state.pending,
      state.maturedProceeds,
      state.operatorCredits,
      state.settlementsPaid,
      state.retainedTarget,
    ].map(m),
    pendingPayments: state.pendingPayments.map((p) => ({ ...p, net: m(p.net) })).toJS(),
    openSettlements: state.openSettlements.map(m).toJS(),
    closedSettlements: state.closedSettlements.toJS(),
    openReservations: state.openReservations.map((r) => ({ ...r, total: m(r.total) })).toJS(),
    closedReservations: [
      state.closedReservations.size,
      ...PAYOUTS.map((id) => state.closedReservations.get(id)),
    ],
    pendingByCustomer: state.pendingByCustomer.toJS(),
  };
}

describe('LedgerTally, the audit fold of a ledger in cents', () => {
  it('takes an event exactly when evolveLedger does, with the same resulting state, over generated histories', () => {
    const { taken, refusedByBoth, leftToTheDomain } = tallyAgreesWithDomain({
      histories: HISTORIES,
      steps: STEPS,
      newTally: () => new LedgerTally(),
      initial: initialLedgerState,
      evolve: evolveLedger,
      randomEvent,
      plainValues,
      view,
    });
    // The histories reach every kind of event, refusals and odd values, not only the easy path.
    expect([...taken.keys()].sort()).toEqual([
      'FundsCredited',
      'LedgerLimitsSet',
      'PaymentProceedsMatured',
      'PaymentProceedsRecorded',
      'PayoutFundsReleased',
      'PayoutFundsReserved',
      'PayoutFundsSettled',
      'RetainedTargetSet',
      'SettlementFailed',
      'SettlementPaid',
      'SettlementStarted',
    ]);
    expect(Math.min(...taken.values())).toBeGreaterThan(100);
    expect(refusedByBoth).toBeGreaterThan(1000);
    expect(leftToTheDomain).toBeGreaterThan(20);
  });

  it('reads amounts as exact cents and leaves every other shape to the domain', () => {
    expect(['0', '0.5', '0.05', '12.30', '123456789012345678.99'].map((a) => cents(a))).toEqual([
      0n,
      50n,
      5n,
      1230n,
      12345678901234567899n,
    ]);
    expect(ODD_AMOUNTS.map((a) => cents(a))).toEqual(ODD_AMOUNTS.map(() => null));
    expect([-150n, -5n, 0n, 7n, 100n].map((c) => money(c).toFixed(2))).toEqual([
      '-1.50',
      '-0.05',
      '0.00',
      '0.07',
      '1.00',
    ]);
  });
});
