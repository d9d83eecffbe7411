import {
  CHECKOUT_TEST_WEBHOOK_BODY,
  checkoutWebhookBody,
  jsonNumberFromDecimal,
  orderPaidEventId,
} from './checkout-webhook-body';

describe('the checkout webhook body', () => {
  it.each([
    ['0.50', '0.5'],
    ['10.50', '10.5'],
    ['100000.00', '100000'],
    ['12.00', '12'],
    ['0.05', '0.05'],
    ['99999.99', '99999.99'],
    ['1.10', '1.1'],
    ['10', '10'],
    ['1', '1'],
    ['0.00', '0'],
  ])('writes the amount %s as the JSON number %s, from the string alone', (amount, json) => {
    expect(jsonNumberFromDecimal(amount)).toBe(json);
    // The text is a JSON number of exactly the decimal's value.
    expect(JSON.parse(json)).toBe(Number(amount));
  });

  it('keeps every digit of an amount that a float would round', () => {
    // 2^53 + 1 as a whole amount: a JS number would print 9007199254740992.
    expect(jsonNumberFromDecimal('9007199254740993.10')).toBe('9007199254740993.1');
  });

  it.each(['', '10.5.0', '-1.00', '+1.00', '1e3', '10.505', '010.50', '.50', '10.', ' 10.50', 'NaN'])(
    'refuses %p, which is not a decimal amount',
    (amount) => {
      expect(() => jsonNumberFromDecimal(amount)).toThrow(RangeError);
    },
  );

  it('is exactly order_id, status, amount and product, in that order, without spaces', () => {
    const body = checkoutWebhookBody({ orderId: 1042, amount: '10.50', product: 'Blue mug' });
    expect(body).toBe('{"order_id":1042,"status":"SUCCESS","amount":10.5,"product":"Blue mug"}');
    expect(Object.keys(JSON.parse(body))).toEqual(['order_id', 'status', 'amount', 'product']);
  });

  it.each([
    ['100000.00', '{"order_id":7,"status":"SUCCESS","amount":100000,"product":""}'],
    ['12.00', '{"order_id":7,"status":"SUCCESS","amount":12,"product":""}'],
    ['0.50', '{"order_id":7,"status":"SUCCESS","amount":0.5,"product":""}'],
  ])('writes an order of %s with no product as %s', (amount, expected) => {
    expect(checkoutWebhookBody({ orderId: 7, amount, product: '' })).toBe(expected);
  });

  it('escapes the product as a JSON string, so any text makes a valid body', () => {
    const product = 'Say "hi"\\ \n\t tab, ünïcode 🎉 </script>';
    const body = checkoutWebhookBody({ orderId: 1, amount: '1.00', product });
    expect(JSON.parse(body).product).toBe(product);
    expect(body).toContain('"product":"Say \\"hi\\"\\\\ \\n\\t tab, ünïcode 🎉 </script>"');
  });

  it.each([[-1], [1.5], [Number.NaN], [2 ** 53]])('refuses the order id %p', (orderId) => {
    expect(() => checkoutWebhookBody({ orderId, amount: '1.00', product: '' })).toThrow(RangeError);
  });

  it('sends the test webhook body the contract names', () => {
    expect(CHECKOUT_TEST_WEBHOOK_BODY).toBe(
      '{"order_id":0,"status":"SUCCESS","amount":1,"product":"Test webhook"}',
    );
  });
});

describe("a paid order's event id", () => {
  it('is derived from the order id: the same every time, another for another order', () => {
    expect(orderPaidEventId(1042)).toBe(orderPaidEventId(1042));
    expect(orderPaidEventId(1042)).not.toBe(orderPaidEventId(1043));
    expect(orderPaidEventId(1042)).toMatch(/^evt_[0-9a-f]{32}$/);
  });
});
