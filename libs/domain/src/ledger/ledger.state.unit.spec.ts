import { initialLedgerState, LedgerState } from './ledger.state';
import { evolveLedger } from './ledger.evolve';
import { LedgerEvent } from './ledger.events';
import { funded, released, reserved, settled } from '../testing/ledger.fixtures';

const fold = (events: LedgerEvent[], from: LedgerState = initialLedgerState()) =>
  events.reduce(evolveLedger, from);

// Ledger states are shared: the aggregate cache keeps one, a command decides on it, a retry
// decides on it again. The persistent maps inside must never let one successor see another's
// change, whichever of them is made first.
describe('Ledger state values', () => {
  it('two successors of one state never see each other’s reservations or counts', () => {
    const base = fold([...funded, reserved('po_a', '10.00', 'cust_1')]);
    const withB = evolveLedger(base, reserved('po_b', '20.00', 'cust_1'));
    const withC = evolveLedger(base, reserved('po_c', '30.00', 'cust_2'));
    const settledA = evolveLedger(withB, settled('po_a', '11.00'));

    expect([...base.openReservations.keys()]).toEqual(['po_a']);
    expect([...withB.openReservations.keys()].sort()).toEqual(['po_a', 'po_b']);
    expect([...withC.openReservations.keys()].sort()).toEqual(['po_a', 'po_c']);
    expect([...settledA.openReservations.keys()]).toEqual(['po_b']);

    expect(base.pendingByCustomer.get('cust_1')).toBe(1);
    expect(withB.pendingByCustomer.get('cust_1')).toBe(2);
    expect(withC.pendingByCustomer.get('cust_1')).toBe(1);
    expect(withC.pendingByCustomer.get('cust_2')).toBe(1);
    expect(settledA.pendingByCustomer.get('cust_1')).toBe(1);
    expect(base.customerPayoutHolds.toFixed(2)).toBe('11.00');
  });

  it('a customer leaves the pending counts when their last open payout ends', () => {
    const state = fold([
      ...funded,
      reserved('po_a', '10.00', 'cust_1'),
      reserved('po_b', '10.00', 'cust_1'),
      released('po_a', '11.00'),
      settled('po_b', '11.00'),
    ]);
    expect(state.pendingByCustomer.has('cust_1')).toBe(false);
    expect(state.pendingByCustomer.size).toBe(0);
    expect(state.openReservations.size).toBe(0);
    expect(state.closedReservations.get('po_a')).toBe('released');
    expect(state.closedReservations.get('po_b')).toBe('settled');
  });
});
