import { readCardForm, readWalletForm } from './payment-form';

/** 15 March 2030, noon UTC, on the order environment's clock. */
const NOW = new Date('2030-03-15T12:00:00Z');
const CARD = {
  card_number: '4242 4242 4242 4242',
  expiry: '03/30',
  security_code: '123',
  name_on_card: 'Ana Payer',
};

describe('the card form', () => {
  it('reads a valid card with its spaces stripped and the expiry as month and four-digit year', () => {
    expect(readCardForm(CARD, NOW)).toEqual({
      instrument: {
        kind: 'card',
        number: '4242424242424242',
        expiryMonth: 3,
        expiryYear: 2030,
        securityCode: '123',
        name: 'Ana Payer',
      },
    });
  });

  it.each([
    ['a number failing Luhn', '4242 4242 4242 4241'],
    ['11 digits', '42424242424'],
    ['20 digits', '42424242424242424242'],
    ['letters', '4242 4242 4242 424a'],
    ['nothing', ''],
  ])('refuses %s as the card number', (_, number) => {
    expect(readCardForm({ ...CARD, card_number: number }, NOW)).toEqual({
      errors: { card_number: 'Enter a valid card number' },
    });
  });

  it('accepts any Luhn-valid number of 12 to 19 digits', () => {
    for (const number of ['4000 0000 0002', '4000000000000000006', '4000000000009995']) {
      expect(readCardForm({ ...CARD, card_number: number }, NOW).errors).toBeUndefined();
    }
  });

  it('takes a card as valid through the last day of its expiry month, and as expired after it', () => {
    expect(
      readCardForm({ ...CARD, expiry: '03/30' }, new Date('2030-03-31T23:59:59Z')).errors,
    ).toBeUndefined();
    expect(readCardForm({ ...CARD, expiry: '03/30' }, new Date('2030-04-01T00:00:00Z'))).toEqual({
      errors: { expiry: 'This card has expired' },
    });
    expect(readCardForm({ ...CARD, expiry: '02/30' }, NOW).errors).toEqual({
      expiry: 'This card has expired',
    });
  });

  it.each(['13/30', '00/30', '3/30', '03/2030', '0330', ''])('refuses %j as an expiry', (expiry) => {
    expect(readCardForm({ ...CARD, expiry }, NOW).errors).toEqual({ expiry: 'Enter the expiry as MM/YY' });
  });

  it.each(['12', '12345', '12a', ''])('refuses %j as a security code', (code) => {
    expect(readCardForm({ ...CARD, security_code: code }, NOW).errors).toEqual({
      security_code: 'Enter the 3 or 4 digit security code',
    });
  });

  it('takes a name of 1 to 100 characters', () => {
    expect(readCardForm({ ...CARD, name_on_card: 'A' }, NOW).errors).toBeUndefined();
    expect(readCardForm({ ...CARD, name_on_card: 'A'.repeat(100) }, NOW).errors).toBeUndefined();
    for (const name of ['', '   ', 'A'.repeat(101)]) {
      expect(readCardForm({ ...CARD, name_on_card: name }, NOW).errors).toEqual({
        name_on_card: 'Enter the name on the card',
      });
    }
  });

  it('names every wrong field at once, so the payer fixes them in one go', () => {
    expect(Object.keys(readCardForm({}, NOW).errors ?? {}).sort()).toEqual([
      'card_number',
      'expiry',
      'name_on_card',
      'security_code',
    ]);
  });
});

describe('the wallet form', () => {
  it('reads an account of 1 to 64 printable characters', () => {
    expect(readWalletForm({ wallet_account: 'ana@wallet' })).toEqual({
      instrument: { kind: 'wallet', account: 'ana@wallet' },
    });
    expect(readWalletForm({ wallet_account: 'a'.repeat(64) }).errors).toBeUndefined();
  });

  it.each([
    ['nothing', ''],
    ['65 characters', 'a'.repeat(65)],
    ['a control character', 'ana\u0007wallet'],
  ])('refuses %s as a wallet account', (_, account) => {
    expect(readWalletForm({ wallet_account: account })).toEqual({
      errors: { wallet_account: 'Enter your wallet account' },
    });
  });
});
