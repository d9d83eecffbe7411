import { refusalOf } from '../testing/given-when-then';
import { formatMoney, isMoneyInput, parseMoney, parseStoredMoney, sumMoney, ZERO_MONEY } from './money';

describe('Money', () => {
  describe('parseMoney accepts plain decimal strings', () => {
    it.each([
      ['0', '0.00'],
      ['0.5', '0.50'],
      ['0.05', '0.05'],
      ['1', '1.00'],
      ['1.0', '1.00'],
      ['10.25', '10.25'],
      ['999999999999999.99', '999999999999999.99'],
    ])('It reads %p as %p.', (input, formatted) => {
      expect(formatMoney(parseMoney(input))).toBe(formatted);
      expect(isMoneyInput(input)).toBe(true);
    });
  });

  describe('parseMoney refuses everything else with invalid_amount', () => {
    it.each<[string, unknown]>([
      ['an empty string', ''],
      ['a point without decimals', '1.'],
      ['decimals without an integer part', '.5'],
      ['three decimals', '1.234'],
      ['a minus sign', '-1'],
      ['a plus sign', '+1'],
      ['an exponent', '1e3'],
      ['a leading space', ' 1'],
      ['a trailing space', '1 '],
      ['a leading zero', '01'],
      ['a double zero', '00.5'],
      ['a comma', '1,50'],
      ['sixteen integer digits', '1000000000000000'],
      ['hexadecimal', '0x10'],
      ['Infinity', 'Infinity'],
      ['NaN', 'NaN'],
      ['a JSON number', 10],
      ['a JSON number with decimals', 10.5],
      ['a bigint', BigInt(10)],
      ['null', null],
      ['undefined', undefined],
      ['an object', { amount: '1' }],
      ['an array', ['1']],
    ])('It refuses %s.', (_label, input) => {
      const error = refusalOf(() => parseMoney(input, 'fee'));
      expect(error.code).toBe('invalid_amount');
      expect(error.param).toBe('fee');
      expect(isMoneyInput(input)).toBe(false);
    });

    it('It names the parameter "amount" unless told otherwise.', () => {
      expect(refusalOf(() => parseMoney('x')).param).toBe('amount');
    });

    it('It explains that a JSON number is not a decimal string.', () => {
      expect(refusalOf(() => parseMoney(10)).message).toMatch(/decimal string.*not a number/);
    });
  });

  describe('arithmetic stays exact and strict', () => {
    it('It adds 0.1 and 0.2 to exactly 0.30.', () => {
      expect(formatMoney(parseMoney('0.1').plus(parseMoney('0.2')))).toBe('0.30');
    });

    it('It refuses to mix a JS number into an amount.', () => {
      expect(() => parseMoney('1').plus(1)).toThrow();
      expect(() => parseMoney('0.1').plus(parseMoney('0.2')).valueOf()).toThrow();
    });

    it('It sums a list of amounts, and an empty list to zero.', () => {
      expect(formatMoney(sumMoney([parseMoney('1.10'), parseMoney('2.20'), parseMoney('3.3')]))).toBe('6.60');
      expect(formatMoney(sumMoney([]))).toBe('0.00');
      expect(ZERO_MONEY.eq(parseMoney('0'))).toBe(true);
    });

    it('It never formats a zero difference as negative zero.', () => {
      const amount = parseMoney('5.25');
      expect(formatMoney(amount.minus(amount))).toBe('0.00');
    });
  });

  describe('parseStoredMoney reads values the service wrote itself', () => {
    it.each(['0.00', '12.50', '12.5', '-3.00', '1234567890123456789.00'])('It reads %p.', (stored) => {
      expect(parseStoredMoney(stored).eq(parseStoredMoney(stored))).toBe(true);
    });

    it.each(['', '1e3', ' 1', 'abc', '1.'])(
      'It treats the malformed %p as a bug, not a user error.',
      (stored) => {
        expect(() => parseStoredMoney(stored)).toThrow(/Malformed stored money/);
      },
    );

    it('It refuses a number smuggled in through an untyped value.', () => {
      expect(() => parseStoredMoney(5 as unknown as string)).toThrow(/Malformed stored money/);
    });
  });
});
