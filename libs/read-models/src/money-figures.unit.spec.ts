import Big from 'big.js';
import { moneySum, moneyText } from './money-figures';

const figures = ['0', '-0', '0.00', '0.01', '-0.01', '12.34', '-12.34', '999999999.99', '5', '-5'];
// Zeros made the ways a batch makes them: a constant, a sum to zero, a negated zero, a difference.
const zeros = [new Big(0), new Big('5').plus('-5'), new Big(0).neg(), new Big('1.10').minus('1.1')];

describe('moneySum and moneyText', () => {
  it('sum as plus does and print as toFixed(2) does, zeros of every kind included', () => {
    const values = [...figures.map((f) => new Big(f)), ...zeros];
    for (const a of values) {
      expect(moneyText(a)).toBe(a.toFixed(2));
      for (const b of values) {
        expect(moneySum(a, b).eq(a.plus(b))).toBe(true);
        expect(moneyText(moneySum(a, b))).toBe(a.plus(b).toFixed(2));
      }
    }
  });

  it('give back the other operand when one is zero, and a new value otherwise', () => {
    const a = new Big('12.34');
    for (const zero of zeros) {
      expect(moneySum(a, zero)).toBe(a);
      expect(moneySum(zero, a)).toBe(a);
    }
    const sum = moneySum(a, new Big('0.01'));
    expect(sum.toFixed(2)).toBe('12.35');
    expect(a.toFixed(2)).toBe('12.34');
  });
});
