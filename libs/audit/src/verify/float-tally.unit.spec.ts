import { evolveFloat, FloatEvent, FloatState, initialFloatState, Money } from '@payouts/domain';
import { Rng, tallyAgreesWithDomain } from '../testing/tally-agreement';
import { FloatTally } from './float-tally';
import { cents } from './tally-cents';

const HISTORIES = 400;
const STEPS = 40;
const AT = '2026-03-01T12:00:00.000Z';
const PAYOUTS = Array.from({ length: 12 }, (_, i) => `po_${i}`);
/** What a forged or buggy event may carry where an amount belongs: the domain reads some of these. */
const ODD_AMOUNTS: unknown[] = ['1.005', '-5.00', '-0', 'abc', '', '1e2', ' 7', '01', '0.', '5.000', 5, null];

function amount(rng: Rng, maxWhole: number): unknown {
  if (rng.chance(0.06)) return rng.pick(ODD_AMOUNTS);
  return `${rng.int(0, maxWhole)}.${String(rng.int(0, 99)).padStart(2, '0')}`;
}

/** Mostly events the float can take, next to reservations it cannot afford, duplicates and wrong amounts. */
function randomEvent(rng: Rng, state: FloatState): FloatEvent {
  const open = [...state.openReservations.entries()];
  const roll = rng.next();
  const wrong = rng.chance(0.15);
  if (roll < 0.2) return event('FloatToppedUp', { amount: amount(rng, 300), reference: 'top-up' });
  if (roll < 0.55) {
    const payoutId = rng.chance(0.03) ? 7 : rng.pick(PAYOUTS);
    return event('FloatReserved', { payoutId, amount: amount(rng, 150) });
  }
  if (roll < 0.96) {
    const [payoutId, reserved] = open.length > 0 && rng.chance(0.85) ? rng.pick(open) : [rng.pick(PAYOUTS)];
    const type = rng.chance(0.4) ? 'FloatReleased' : 'FloatPaidOut';
    return event(type, { payoutId, amount: reserved && !wrong ? reserved.toFixed(2) : amount(rng, 150) });
  }
  return { type: rng.pick(['FloatReserved', 'FloatPaidOut']), data: null } as unknown as FloatEvent;
}

function event(type: FloatEvent['type'], data: Record<string, unknown>): FloatEvent {
  return { type, data: { environment: 'sandbox', ...data, at: AT } } as unknown as FloatEvent;
}

/** Whether the tally is meant to take this event when the domain does: plain amounts and string ids. */
function plainValues(e: FloatEvent): boolean {
  const data = e.data as Record<string, unknown> | null;
  return (
    data !== null &&
    cents(data.amount) !== null &&
    (!('payoutId' in data) || typeof data.payoutId === 'string')
  );
}

/** Everything evolveFloat's state holds, comparable with toEqual (amounts by value). */
function view(state: FloatState) {
  const m = (value: Money) => value.toString();
  return {
    sums: [state.toppedUp, state.available, state.reserved, state.paidOut].map(m),
    openReservations: state.openReservations.map(m).toJS(),
    closedReservations: [
      state.closedReservations.size,
      ...PAYOUTS.map((id) => state.closedReservations.get(id)),
    ],
  };
}

describe('FloatTally, the audit fold of a payout float in cents', () => {
  it('takes an event exactly when evolveFloat does, with the same resulting state, over generated histories', () => {
    const { taken, refusedByBoth, leftToTheDomain } = tallyAgreesWithDomain({
      histories: HISTORIES,
      steps: STEPS,
      newTally: () => new FloatTally(),
      initial: initialFloatState,
      evolve: evolveFloat,
      randomEvent,
      plainValues,
      view,
    });
    // The histories reach every kind of event, refusals and odd values, not only the easy path.
    expect([...taken.keys()].sort()).toEqual([
      'FloatPaidOut',
      'FloatReleased',
      'FloatReserved',
      'FloatToppedUp',
    ]);
    expect(Math.min(...taken.values())).toBeGreaterThan(100);
    expect(refusedByBoth).toBeGreaterThan(500);
    expect(leftToTheDomain).toBeGreaterThan(20);
  });

  it('gives the domain a float whose later refusals are the domain’s own', () => {
    const tally = new FloatTally();
    const top = event('FloatToppedUp', { amount: '100.00', reference: 'r' });
    const reserve = event('FloatReserved', { payoutId: 'po_1', amount: '60.00' });
    const paid = event('FloatPaidOut', { payoutId: 'po_1', amount: '60.00' });
    expect([top, reserve, paid].map((e) => tally.tryApply(e))).toEqual([true, true, true]);
    // Paid out once: a second payment, or a reservation of the same payout, is refused by both.
    const again = event('FloatReserved', { payoutId: 'po_1', amount: '1.00' });
    expect(tally.tryApply(again)).toBe(false);
    expect(() => evolveFloat(tally.toDomainState(), again)).toThrow('po_1 was already reserved');
    // More than the float holds.
    const tooMuch = event('FloatReserved', { payoutId: 'po_2', amount: '40.01' });
    expect(tally.tryApply(tooMuch)).toBe(false);
    expect(() => evolveFloat(tally.toDomainState(), tooMuch)).toThrow(
      'Float invariant broken: available is -0.01',
    );
    // Refusals change nothing: the float handed over still holds 40.00.
    expect(tally.toDomainState().available.toFixed(2)).toBe('40.00');
  });
});
