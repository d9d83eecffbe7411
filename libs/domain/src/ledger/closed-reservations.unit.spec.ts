import { ClosedReservations } from './closed-reservations';

describe('Closed reservations', () => {
  it('An empty set knows no payout.', () => {
    expect(ClosedReservations.empty().get('po_1')).toBeUndefined();
    expect(ClosedReservations.empty().size).toBe(0);
  });

  it('Adding a payout yields a new value and leaves the old one as it was.', () => {
    const before = ClosedReservations.empty().with('po_1', 'released');
    const after = before.with('po_2', 'settled');
    expect([before.get('po_1'), before.get('po_2'), before.size]).toEqual(['released', undefined, 1]);
    expect([after.get('po_1'), after.get('po_2'), after.size]).toEqual(['released', 'settled', 2]);
  });

  it('Two values grown from one older value do not see each other’s additions.', () => {
    const base = ClosedReservations.empty().with('po_1', 'released');
    const left = base.with('po_2', 'settled');
    const right = base.with('po_3', 'released').with('po_2', 'released');
    const leftAgain = left.with('po_4', 'settled');
    expect([left.get('po_2'), left.get('po_3'), left.get('po_4')]).toEqual(['settled', undefined, undefined]);
    expect([right.get('po_2'), right.get('po_3'), right.get('po_4')]).toEqual([
      'released',
      'released',
      undefined,
    ]);
    expect([leftAgain.get('po_2'), leftAgain.get('po_3'), leftAgain.get('po_4')]).toEqual([
      'settled',
      undefined,
      'settled',
    ]);
    expect(base.get('po_2')).toBeUndefined();
  });

  it('Built from payouts in the order they closed, it is the value those additions give.', () => {
    const built = ClosedReservations.from([
      ['po_1', 'released'],
      ['po_2', 'settled'],
    ]);
    expect([built.get('po_1'), built.get('po_2'), built.get('po_3'), built.size]).toEqual([
      'released',
      'settled',
      undefined,
      2,
    ]);
    expect(ClosedReservations.from([]).size).toBe(0);
    expect(() =>
      ClosedReservations.from([
        ['po_1', 'released'],
        ['po_1', 'settled'],
      ]),
    ).toThrow(/already closed/);
  });

  it('Closing a payout twice is a bug.', () => {
    const closed = ClosedReservations.empty().with('po_1', 'released');
    expect(() => closed.with('po_1', 'settled')).toThrow(/already closed/);
  });
});
