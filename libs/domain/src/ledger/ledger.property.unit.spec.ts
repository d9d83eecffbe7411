import { isMoneyInput, Money, parseStoredMoney, sumMoney, ZERO_MONEY } from '../money/money';
import { ORDER_METHODS } from '../order/order.events';
import { DEFAULT_PRICING, paymentCharges } from '../pricing/pricing';
import { DomainError } from '../kernel/domain-error';
import { addMs, MINUTE_MS } from '../kernel/time';
import { seededRandom } from '../testing/seeded-random';
import { LedgerCommand } from './ledger.commands';
import { LedgerEvent } from './ledger.events';
import { decideLedger, ledgerDecider } from './ledger.decide';
import {
  addMovements,
  LEDGER_RUNNING_FIGURES,
  LedgerMovement,
  ledgerMovement,
  NO_MOVEMENT,
} from './ledger.movement';
import { LedgerState } from './ledger.state';
import { ledgerBalanceView } from './ledger.view';
import { ACCOUNT, T0 } from '../testing/ledger.fixtures';

const SEQUENCES = 3000;
const STEPS = 30;

type Rng = ReturnType<typeof seededRandom>;

function money(rng: Rng, maxWhole: number): string {
  if (rng.chance(0.04)) return rng.pick(['', '1.234', '-5', '1e2', ' 7', '01', 'abc', '0']);
  return `${rng.int(0, maxWhole)}.${String(rng.int(0, 99)).padStart(2, '0')}`;
}

function randomLimits(rng: Rng): LedgerCommand {
  const limits = {
    feePerPayout: rng.pick(['0', '0.5', '1.00', '2.25']),
    minPayout: rng.pick(['0.01', '1', '5.00', '60']),
    maxPayout: rng.pick(['50', '200.00', '500.5']),
    maxOpenExposure: rng.pick(['100', '300.00', '1000', '5000']),
    maxPendingPerCustomer: rng.int(0, 4),
  };
  return { type: 'SetLedgerLimits', data: { ...ACCOUNT, limits } };
}

/** Proceeds, maturing, settlements and the retained target, mostly ones that can succeed. */
function randomFundsFlowCommand(rng: Rng, state: LedgerState): LedgerCommand {
  const roll = rng.next();
  if (roll < 0.35) {
    const gross = money(rng, 300);
    const charges = isMoneyInput(gross)
      ? paymentCharges(DEFAULT_PRICING, rng.pick(ORDER_METHODS), gross, T0)
      : { gross: '1.00', fee: '0.50', net: '0.50' };
    return {
      type: 'RecordPaymentProceeds',
      data: {
        orderId: rng.int(0, 20),
        method: 'card',
        gross: charges.gross,
        fee: charges.fee,
        net: charges.net,
        paidAt: T0.toISOString(),
        availableOn: addMs(T0, rng.int(0, STEPS) * MINUTE_MS).toISOString(),
      },
    };
  }
  if (roll < 0.6) return { type: 'MatureProceeds', data: { max: rng.int(0, 3) } };
  if (roll < 0.75)
    return {
      type: 'StartSettlement',
      data: { settlementId: `stl_${rng.int(0, 5)}`, trigger: rng.pick(['daily', 'manual'] as const) },
    };
  if (roll < 0.92) {
    const open = [...state.openSettlements.keys()];
    const settlementId = open.length > 0 && rng.chance(0.8) ? rng.pick(open) : `stl_${rng.int(0, 5)}`;
    return rng.chance(0.6)
      ? { type: 'CompleteSettlement', data: { settlementId, outcome: 'paid' } }
      : { type: 'CompleteSettlement', data: { settlementId, outcome: 'failed', reason: 'account_closed' } };
  }
  return { type: 'SetRetainedTarget', data: { amount: money(rng, 300) } };
}

/** Mostly commands that can succeed; releases and settlements mostly target open reservations. */
function randomCommand(rng: Rng, state: LedgerState): LedgerCommand {
  if (rng.chance(0.35)) return randomFundsFlowCommand(rng, state);
  const open = [...state.openReservations.keys()];
  const payoutId = open.length > 0 && rng.chance(0.7) ? rng.pick(open) : `po_${rng.int(0, 14)}`;
  const roll = rng.next();
  if (roll < 0.05) return randomLimits(rng);
  if (roll < 0.25)
    return {
      type: 'CreditFunds',
      data: { ...ACCOUNT, amount: money(rng, 400), reference: 'wire', reason: 'top-up' },
    };
  if (roll < 0.6) {
    const customerKey = rng.pick(['cust_0', 'cust_1', 'cust_2', 'cust_3', '']);
    return {
      type: 'ReservePayoutFunds',
      data: { payoutId: `po_${rng.int(0, 14)}`, customerKey, amount: money(rng, 250) },
    };
  }
  if (roll < 0.8) {
    return {
      type: 'ReleasePayoutFunds',
      data: { payoutId, reason: rng.pick(['cancelled', 'expired', 'failed'] as const) },
    };
  }
  return { type: 'SettlePayoutFunds', data: { payoutId } };
}

/** Running totals kept from the events alone, independently of evolve. */
type Tally = {
  credited: Money;
  reserved: Money;
  released: Money;
  settled: Money;
  gross: Money;
  fees: Money;
  matured: Money;
  settlementsStarted: Money;
  settlementsPaid: Money;
  settlementsFailed: Money;
};

const add = (total: Money, amount: string): Money => total.plus(parseStoredMoney(amount));

function tallyWith(tally: Tally, event: LedgerEvent): Tally {
  switch (event.type) {
    case 'LedgerLimitsSet':
      return tally;
    case 'FundsCredited':
      return { ...tally, credited: tally.credited.plus(parseStoredMoney(event.data.amount)) };
    case 'PayoutFundsReserved':
      return { ...tally, reserved: tally.reserved.plus(parseStoredMoney(event.data.total)) };
    case 'PayoutFundsReleased':
      return { ...tally, released: tally.released.plus(parseStoredMoney(event.data.total)) };
    case 'PayoutFundsSettled':
      return { ...tally, settled: tally.settled.plus(parseStoredMoney(event.data.total)) };
    case 'PaymentProceedsRecorded':
      return { ...tally, gross: add(tally.gross, event.data.gross), fees: add(tally.fees, event.data.fee) };
    case 'PaymentProceedsMatured':
      return { ...tally, matured: add(tally.matured, event.data.net) };
    case 'SettlementStarted':
      return { ...tally, settlementsStarted: add(tally.settlementsStarted, event.data.amount) };
    case 'SettlementPaid':
      return { ...tally, settlementsPaid: add(tally.settlementsPaid, event.data.amount) };
    case 'SettlementFailed':
      return { ...tally, settlementsFailed: add(tally.settlementsFailed, event.data.amount) };
    case 'RetainedTargetSet':
      return tally;
  }
}

// Plain checks: jest's expect is too slow for ~90,000 steps; a failure names the seed and step.
function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`Broken: ${what}`);
}

function checkMoneyInvariant(state: LedgerState, tally: Tally): void {
  const accounted = sumMoney([
    state.available,
    state.customerPayoutHolds,
    state.customerPayoutsSettled,
    state.merchantSettlementHolds,
    state.settlementsPaid,
  ]);
  check(
    state.fundsIn.eq(accounted),
    'matured proceeds + credits = available + holds + settled + settlement holds + settlements paid',
  );
  check(state.available.gte(ZERO_MONEY), 'available >= 0');
  const holds = tally.reserved.minus(tally.released).minus(tally.settled);
  check(state.fundsIn.eq(tally.credited.plus(tally.matured)), 'funds in = credited + matured proceeds');
  check(state.grossProceeds.eq(tally.gross), 'gross = sum of payments');
  check(
    tally.gross.eq(sumMoney([tally.fees, state.pending, tally.matured])),
    'gross proceeds = fees + pending + matured proceeds',
  );
  const pendingTotal = sumMoney([...state.pendingPayments.values()].map((payment) => payment.net));
  check(pendingTotal.eq(state.pending), 'pending = sum of pending payments');
  const inTransit = tally.settlementsStarted.minus(tally.settlementsPaid).minus(tally.settlementsFailed);
  check(state.merchantSettlementHolds.eq(inTransit), 'settlement holds = started - paid - failed');
  const openSettlements = sumMoney([...state.openSettlements.values()]);
  check(openSettlements.eq(state.merchantSettlementHolds), 'settlement holds = sum of open settlements');
  check(state.settlementsPaid.eq(tally.settlementsPaid), 'settlements paid = sum of paid settlements');
  check(state.customerPayoutHolds.eq(holds), 'holds = reserved - released - settled');
  check(state.customerPayoutsSettled.eq(tally.settled), 'settled = sum of settlements');
  const openTotal = sumMoney([...state.openReservations.values()].map((reservation) => reservation.total));
  check(openTotal.eq(state.customerPayoutHolds), 'holds = sum of open reservations');
}

/** What a started settlement and a maturing promise about the state they were decided on. */
function checkFundsFlowRules(before: LedgerState, event: LedgerEvent, now: Date): void {
  if (event.type === 'SettlementStarted') {
    const amount = parseStoredMoney(event.data.amount);
    check(amount.eq(before.available.minus(before.retainedTarget)), 'settles available - retained target');
    check(amount.gte(parseStoredMoney('1.00')), 'a settlement is at least 1.00');
    check(amount.lte(before.available), 'a settlement never takes money held for payouts');
  }
  if (event.type === 'PaymentProceedsMatured') {
    const payment = before.pendingPayments.get(event.data.orderId);
    check(payment !== undefined && Date.parse(payment.availableOn) <= now.getTime(), 'matures only when due');
  }
}

/** What an accepted reservation promises about the state it was decided on. */
function checkReservationRules(before: LedgerState, event: LedgerEvent): void {
  if (event.type !== 'PayoutFundsReserved') return;
  const { limits } = before;
  check(limits !== null, 'limits configured');
  if (limits === null) return;
  const amount = parseStoredMoney(event.data.amount);
  const total = parseStoredMoney(event.data.total);
  check(amount.gte(parseStoredMoney(limits.minPayout)), 'amount >= min_payout');
  check(amount.lte(parseStoredMoney(limits.maxPayout)), 'amount <= max_payout');
  check(event.data.fee === limits.feePerPayout, 'fee = fee_per_payout');
  check(total.eq(amount.plus(parseStoredMoney(event.data.fee))), 'total = amount + fee');
  check(
    before.customerPayoutHolds.plus(total).lte(parseStoredMoney(limits.maxOpenExposure)),
    'exposure within limit',
  );
  check(before.available.gte(total), 'enough available');
  check(
    (before.pendingByCustomer.get(event.data.customerKey) ?? 0) < limits.maxPendingPerCustomer,
    'pending within limit',
  );
}

/** Every money figure evolve keeps is the sum of the movements of the events it folded. */
function checkSumOfMovements(state: LedgerState, total: LedgerMovement): void {
  for (const figure of LEDGER_RUNNING_FIGURES) {
    check(state[figure].eq(total[figure]), `${figure} = the sum of the movements`);
  }
  check(
    state.retainedTarget.eq(total.retainedTarget ?? ZERO_MONEY),
    'retained target = the last one the movements set',
  );
}

type Point = { state: LedgerState; tally: Tally; movement: LedgerMovement; view: string };

function runSequence(seed: number, counts: Map<string, number>): void {
  const rng = seededRandom(seed);
  const zero: Tally = {
    credited: ZERO_MONEY,
    reserved: ZERO_MONEY,
    released: ZERO_MONEY,
    settled: ZERO_MONEY,
    gross: ZERO_MONEY,
    fees: ZERO_MONEY,
    matured: ZERO_MONEY,
    settlementsStarted: ZERO_MONEY,
    settlementsPaid: ZERO_MONEY,
    settlementsFailed: ZERO_MONEY,
  };
  const start = ledgerDecider.initialState();
  let current: Point = {
    state: start,
    tally: zero,
    movement: NO_MOVEMENT,
    view: JSON.stringify(ledgerBalanceView(start)),
  };
  const history: Point[] = [current];
  for (let step = 0; step < STEPS; step += 1) {
    try {
      // Now and then continue from an older state, as a writer that lost a concurrency race
      // would: an older state must be untouched by everything decided after it.
      if (rng.chance(0.05)) {
        current = rng.pick(history);
        check(
          JSON.stringify(ledgerBalanceView(current.state)) === current.view,
          'older states are unchanged',
        );
      }
      // Most sequences configure limits first, so reservations get a fair chance.
      const command = step === 0 && rng.chance(0.9) ? randomLimits(rng) : randomCommand(rng, current.state);
      let events: LedgerEvent[];
      const now = addMs(T0, step * MINUTE_MS);
      try {
        events = decideLedger(command, current.state, now);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        counts.set(error.code, (counts.get(error.code) ?? 0) + 1);
        continue;
      }
      let { state, tally, movement } = current;
      for (const event of events) {
        checkReservationRules(state, event);
        checkFundsFlowRules(state, event, now);
        state = ledgerDecider.evolve(state, event);
        tally = tallyWith(tally, event);
        movement = addMovements(movement, ledgerMovement(event));
        counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
      }
      checkMoneyInvariant(state, tally);
      checkSumOfMovements(state, movement);
      current = { state, tally, movement, view: JSON.stringify(ledgerBalanceView(state)) };
      history.push(current);
    } catch (error) {
      throw new Error(`seed ${seed}, step ${step}: ${(error as Error).message}`, { cause: error });
    }
  }
}

describe('Ledger under random command sequences', () => {
  it(`Money is conserved (both equations of docs/design.md#conservation) and never overdrawn, and every figure is the sum of the events' movements (ledgerMovement), with payments, maturing, payouts and settlements in every outcome and adjustments, across ${SEQUENCES} seeded sequences of ${STEPS} commands, stale retries included.`, () => {
    const counts = new Map<string, number>();
    for (let seed = 1; seed <= SEQUENCES; seed += 1) runSequence(seed, counts);

    // The run must have taken every path, or it proves little.
    const outcomes = [
      'LedgerLimitsSet',
      'FundsCredited',
      'PayoutFundsReserved',
      'PayoutFundsReleased',
      'PayoutFundsSettled',
      'PaymentProceedsRecorded',
      'PaymentProceedsMatured',
      'SettlementStarted',
      'SettlementPaid',
      'SettlementFailed',
      'RetainedTargetSet',
      'not_found',
      'invalid_amount',
      'invalid_request',
      'limits_not_configured',
      'amount_out_of_range',
      'payout_already_exists',
      'customer_pending_limit',
      'exposure_limit_exceeded',
      'insufficient_funds',
      'reservation_not_found',
      'invalid_transition',
    ];
    const rare = outcomes.filter((outcome) => (counts.get(outcome) ?? 0) < 20);
    expect(rare).toEqual([]);
  });
});
