import { statisticsDue } from './scratch-schemas';

describe('statisticsDue', () => {
  it('is due after the 2nd batch and each time the count doubles, never in between', () => {
    const due = Array.from({ length: 300 }, (_, i) => i + 1).filter(statisticsDue);
    expect(due).toEqual([2, 4, 8, 16, 32, 64, 128, 256]);
  });
});
