import { ApiError, parseStrictJson } from '@payouts/http';
import { readCreateOrderBody } from './create-order-body';

/** The body as the gateway's JSON body parser reads it from `amountText`, written into the text. */
const read = (amountText: string) => {
  const parsed = parseStrictJson(`{"amount":${amountText},"currency":"USD","customer":"payer@example.com"}`);
  if (!parsed.ok) throw new Error(`not JSON: ${amountText}`);
  return readCreateOrderBody(parsed.value, 'sandbox');
};

const refusal = (amountText: string): unknown => {
  try {
    read(amountText);
  } catch (error) {
    return error instanceof ApiError ? [error.status, error.code, error.param] : error;
  }
  return 'accepted';
};

describe('readCreateOrderBody: the amount, judged as the JSON text wrote it', () => {
  it.each([
    ['10.5', '10.5'],
    ['10.50', '10.50'],
    ['10', '10'],
    ['10.0', '10.0'],
    ['100000', '100000'],
    ['100000.00', '100000.00'],
    ['0.5', '0.5'],
    ['0.50', '0.50'],
    // Range is the order decider's rule (0.50 to 100000.00 by default), not the body's.
    ['0', '0'],
    ['123456789012345', '123456789012345'],
  ])('takes %s as the decimal string %s', (text, amount) => {
    expect(read(text).amount).toBe(amount);
  });

  it.each([
    ['10.500', 'trailing zeros count as written'],
    ['10.049999999999999999', 'JSON.parse would round it to 10.05'],
    ['0.4999999999999999999', 'JSON.parse would round it to 0.5'],
    ['10.555', 'three decimals'],
    ['0.001', 'three decimals'],
    ['1e2', 'an exponent'],
    ['1E+2', 'an exponent'],
    ['1.5e1', 'an exponent'],
    ['1e-2', 'an exponent'],
    ['1e21', 'an exponent'],
    ['-5', 'a negative number'],
    ['-0', 'minus zero'],
    ['-0.50', 'a negative number'],
    ['1234567890123456', 'more than 15 digits before the point'],
    ['"10.50"', 'a string'],
    ['true', 'not a number'],
    ['{}', 'not a number'],
    ['null', 'missing'],
  ])('refuses %s (%s) with 400 invalid_amount on amount', (text) => {
    expect(refusal(text)).toEqual([400, 'invalid_amount', 'amount']);
  });

  it('says why, in the message', () => {
    const message = (text: string) => {
      try {
        read(text);
      } catch (error) {
        return (error as ApiError).message;
      }
      return '';
    };
    expect(message('10.500')).toMatch(/at most 2 decimal places/);
    expect(message('1e2')).toMatch(/exponent/);
    expect(message('-5')).toMatch(/greater than 0/);
    expect(message('"10.50"')).toMatch(/not a string/);
  });

  it('refuses to guess when the number did not come through the JSON body parser', () => {
    expect(() =>
      readCreateOrderBody({ amount: 10.5, currency: 'USD', customer: 'a@b.co' }, 'sandbox'),
    ).toThrow(/as written/);
  });
});
