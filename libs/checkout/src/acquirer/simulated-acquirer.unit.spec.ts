import { authorizationKey, AuthorizationRequest, PaymentInstrumentInput } from './acquirer.port';
import { SANDBOX_CARDS, SimulatedAcquirer } from './simulated-acquirer';

const card = (number: string): PaymentInstrumentInput => ({
  kind: 'card',
  number,
  expiryMonth: 12,
  expiryYear: 2099,
  securityCode: '123',
  name: 'Ana Payer',
});

const request = (
  orderId: number,
  attempt: number,
  instrument: PaymentInstrumentInput,
): AuthorizationRequest => ({
  idempotencyKey: authorizationKey(orderId, attempt),
  orderId,
  environment: 'sandbox',
  method: 'card',
  amount: '10.50',
  currency: 'USD',
  instrument,
});

describe('the simulated acquirer', () => {
  it('keys an authorization by the order and the attempt', () => {
    expect(authorizationKey(1000001, 2)).toBe('order_1000001_attempt_2');
  });

  it('authorizes once per idempotency key and gives the first answer again, whatever the second request holds', async () => {
    const acquirer = new SimulatedAcquirer();
    const first = await acquirer.authorize(request(1, 1, card(SANDBOX_CARDS.declined)));
    const again = await acquirer.authorize(request(1, 1, card(SANDBOX_CARDS.paid)));
    expect(first).toEqual({
      approved: false,
      reason: 'card_declined',
      instrument: { kind: 'card', brand: 'visa', last4: '0002' },
    });
    expect(again).toEqual(first);
    expect(acquirer.authorizationsFor(1)).toBe(1);
    expect(acquirer.authorizations).toBe(1);
  });

  it('authorizes each new attempt and counts per order', async () => {
    const acquirer = new SimulatedAcquirer();
    await acquirer.authorize(request(1, 1, card(SANDBOX_CARDS.declined)));
    const paid = await acquirer.authorize(request(1, 2, card(SANDBOX_CARDS.paid)));
    await acquirer.authorize(request(2, 1, card(SANDBOX_CARDS.insufficientFunds)));
    expect(paid.approved).toBe(true);
    expect(acquirer.authorizationsFor(1)).toBe(2);
    expect(acquirer.authorizationsFor(2)).toBe(1);
    expect(acquirer.authorizations).toBe(3);
  });
});
