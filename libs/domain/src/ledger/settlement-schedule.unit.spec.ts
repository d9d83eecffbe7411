import { currentSettlementRun, nextSettlementAt } from './settlement-schedule';

describe('the daily settlement schedule', () => {
  it('is due later today when the hour has not come yet', () => {
    expect(nextSettlementAt(new Date('2026-03-10T05:00:00Z'), 9).toISOString()).toBe(
      '2026-03-10T09:00:00.000Z',
    );
  });

  it('is due tomorrow once the hour has passed, or is this very instant', () => {
    expect(nextSettlementAt(new Date('2026-03-10T09:00:00Z'), 9).toISOString()).toBe(
      '2026-03-11T09:00:00.000Z',
    );
    expect(nextSettlementAt(new Date('2026-03-10T23:59:00Z'), 0).toISOString()).toBe(
      '2026-03-11T00:00:00.000Z',
    );
  });

  it("owes today's run from its hour on, and yesterday's before it", () => {
    expect(currentSettlementRun(new Date('2026-03-10T09:00:00Z'), 9)).toEqual({
      at: new Date('2026-03-10T09:00:00Z'),
      day: '2026-03-10',
    });
    expect(currentSettlementRun(new Date('2026-03-10T08:59:59Z'), 9)).toEqual({
      at: new Date('2026-03-09T09:00:00Z'),
      day: '2026-03-09',
    });
  });
});
