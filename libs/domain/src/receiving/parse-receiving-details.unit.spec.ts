import {
  ParsedReceivingDetails,
  parseReceivingDetails,
  RECEIVING_DETAILS_FIELDS,
} from './parse-receiving-details';
import { describeReceivingDetails, ReceivingDetails, simulatedRailOutcome } from './receiving-details';
import {
  isReceivingDetails,
  isValidAbaRoutingNumber,
  MAX_HOLDER_NAME_LENGTH,
  passesLuhn,
} from './receiving-details-formats';

/**
 * Sandbox test values (the rail simulator answers by the last four digits, see
 * simulatedRailOutcome). Each one passes the validator, so a tester can type it into the pages:
 *
 * | what                   | value              | rail outcome      |
 * |------------------------|--------------------|-------------------|
 * | routing number (ABA)   | 110000000          | (any outcome)     |
 * | bank account           | 000123456789       | paid              |
 * | bank account           | 000123450002       | failed            |
 * | bank account           | 000123450003       | review_required   |
 * | debit card (Luhn)      | 4242424242424242   | paid              |
 * | debit card (Luhn)      | 4000000000000002   | failed            |
 * | debit card (Luhn)      | 4000000000090003   | review_required   |
 * | wallet phone (E.164)   | +14155550100       | paid              |
 * | wallet phone (E.164)   | +14155550002       | failed            |
 * | wallet phone (E.164)   | +14155550003       | review_required   |
 * | wallet e-mail          | fail@example.com   | failed            |
 * | wallet e-mail          | review@example.com | review_required   |
 */
const SANDBOX = {
  routingNumber: '110000000',
  accounts: { paid: '000123456789', failed: '000123450002', review_required: '000123450003' },
  cards: { paid: '4242424242424242', failed: '4000000000000002', review_required: '4000000000090003' },
  phones: { paid: '+14155550100', failed: '+14155550002', review_required: '+14155550003' },
  emails: { failed: 'fail@example.com', review_required: 'review@example.com' },
} as const;

const NOW = new Date('2026-03-15T12:00:00.000Z');

const BANK_FORM = {
  account_holder: 'Ada Lovelace',
  routing_number: '110000000',
  account_number: '000123456789',
};
const CARD_FORM = { cardholder_name: 'Ada Lovelace', card_number: '4242 4242 4242 4242', expiry: '08/29' };

function refusalOf(result: ParsedReceivingDetails): Record<string, string> {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.details)}`);
  return result.errors;
}

function detailsOf(result: ParsedReceivingDetails): ReceivingDetails {
  if (!result.ok) throw new Error(`expected details, got ${JSON.stringify(result.errors)}`);
  return result.details;
}

/** Then: only `field` is refused, with a message for a person that does not echo the value. */
function expectOnlyFieldRefused(result: ParsedReceivingDetails, field: string, message: RegExp): void {
  const errors = refusalOf(result);
  expect(Object.keys(errors)).toEqual([field]);
  expect(errors[field]).toMatch(message);
  expect(errors[field]).toMatch(/^[A-Z].*\.$/);
}

describe('Receiving details typed by the recipient', () => {
  describe('choosing a method', () => {
    it.each(['', 'cash', 'BANK_TRANSFER', '__proto__'])(
      'Given the method %j, when parsed, then it is refused with a message on the method.',
      (method) => {
        expect(refusalOf(parseReceivingDetails(method, BANK_FORM, NOW))).toEqual({
          method: 'Choose how you want to receive the money.',
        });
      },
    );

    it('Each method names the form fields it reads.', () => {
      expect(RECEIVING_DETAILS_FIELDS).toEqual({
        bank_transfer: ['account_holder', 'routing_number', 'account_number'],
        debit_card: ['cardholder_name', 'card_number', 'expiry'],
        wallet: ['wallet_handle'],
      });
    });
  });

  describe('bank transfer', () => {
    it('Given a holder, a valid routing number and an account number, then the details are accepted, trimmed.', () => {
      const details = parseReceivingDetails(
        'bank_transfer',
        { account_holder: '  Ada   Lovelace ', routing_number: ' 021000021 ', account_number: ' 0001234 ' },
        NOW,
      );
      expect(detailsOf(details)).toEqual({
        method: 'bank_transfer',
        accountHolder: 'Ada Lovelace',
        routingNumber: '021000021',
        accountNumber: '0001234',
      });
    });

    it('Given an empty form, then every field is refused at once.', () => {
      expect(refusalOf(parseReceivingDetails('bank_transfer', {}, NOW))).toEqual({
        account_holder: "Enter the account holder's name.",
        routing_number: 'Enter the routing number.',
        account_number: 'Enter the account number.',
      });
    });

    it.each([
      ['12345678', /must be 9 digits/],
      ['1234567890', /must be 9 digits/],
      ['11000000a', /must be 9 digits/],
      ['110-000-000', /must be 9 digits/],
      ['110000001', /not valid/],
      ['123456789', /not valid/],
    ])('Given the routing number %j, then it is refused.', (routing, message) => {
      expectOnlyFieldRefused(
        parseReceivingDetails('bank_transfer', { ...BANK_FORM, routing_number: routing }, NOW),
        'routing_number',
        message,
      );
    });

    it.each(['123', '123456789012345678', '12 34 56', '12345a', '-1234'])(
      'Given the account number %j, then it is refused: it must be 4 to 17 digits.',
      (account) => {
        expectOnlyFieldRefused(
          parseReceivingDetails('bank_transfer', { ...BANK_FORM, account_number: account }, NOW),
          'account_number',
          /must be 4 to 17 digits/,
        );
      },
    );

    it.each(['1234', '12345678901234567'])(
      'Given the account number %j at a bound, then it is accepted.',
      (account) => {
        expect(
          parseReceivingDetails('bank_transfer', { ...BANK_FORM, account_number: account }, NOW).ok,
        ).toBe(true);
      },
    );
  });

  describe('holder names (bank account holder and cardholder)', () => {
    it.each([
      ['   ', /^Enter the account holder's name\.$/],
      ['x'.repeat(MAX_HOLDER_NAME_LENGTH + 1), /at most 100 characters/],
      ['12345', /in letters/],
      ['Ada\u0000Lovelace', /in letters/],
      ['Ada\u0007', /in letters/],
    ])('Given the account holder %j, then it is refused.', (name, message) => {
      expectOnlyFieldRefused(
        parseReceivingDetails('bank_transfer', { ...BANK_FORM, account_holder: name }, NOW),
        'account_holder',
        message,
      );
    });

    it('Given names in any script, with accents and apostrophes, then they are accepted.', () => {
      for (const name of [
        "Seán O'Brien",
        'Zoë Ångström-Ødegaard',
        '山田 太郎',
        'x'.repeat(MAX_HOLDER_NAME_LENGTH),
      ]) {
        expect(parseReceivingDetails('bank_transfer', { ...BANK_FORM, account_holder: name }, NOW).ok).toBe(
          true,
        );
      }
    });

    it('Given a card without the name on it, then the cardholder name is refused.', () => {
      expectOnlyFieldRefused(
        parseReceivingDetails('debit_card', { ...CARD_FORM, cardholder_name: '' }, NOW),
        'cardholder_name',
        /^Enter the name on the card\.$/,
      );
    });
  });

  describe('debit card', () => {
    it('Given a card number with spaces and a future expiry, then the digits and the month are kept.', () => {
      expect(detailsOf(parseReceivingDetails('debit_card', CARD_FORM, NOW))).toEqual({
        method: 'debit_card',
        cardholderName: 'Ada Lovelace',
        cardNumber: '4242424242424242',
        expiryMonth: 8,
        expiryYear: 2029,
      });
    });

    it('Given a card number with dashes, then it is accepted without them.', () => {
      const details = detailsOf(
        parseReceivingDetails('debit_card', { ...CARD_FORM, card_number: '4000-0566-5566-5556' }, NOW),
      );
      expect(details).toMatchObject({ cardNumber: '4000056655665556' });
    });

    it('Given an empty form, then every field is refused at once.', () => {
      expect(refusalOf(parseReceivingDetails('debit_card', {}, NOW))).toEqual({
        cardholder_name: 'Enter the name on the card.',
        card_number: 'Enter the card number.',
        expiry: 'Enter the expiry date as MM/YY.',
      });
    });

    it.each([
      ['42424242424', /12 to 19 digits/],
      ['42424242424242424242', /12 to 19 digits/],
      ['4242 4242 4242 424x', /12 to 19 digits/],
      ['4242.4242.4242.4242', /12 to 19 digits/],
      ['4242424242424241', /not valid/],
      ['4000000000000003', /not valid/],
    ])('Given the card number %j, then it is refused.', (card, message) => {
      expectOnlyFieldRefused(
        parseReceivingDetails('debit_card', { ...CARD_FORM, card_number: card }, NOW),
        'card_number',
        message,
      );
    });

    it.each([
      '4242424242424242',
      '378282246310005',
      '6011111111111117',
      '123456789007',
      '1234567890123456785',
    ])('Given the Luhn-valid card number %j of 12 to 19 digits, then it is accepted.', (card) => {
      expect(parseReceivingDetails('debit_card', { ...CARD_FORM, card_number: card }, NOW).ok).toBe(true);
    });

    it.each([
      ['0829', /as MM\/YY/],
      ['08/2029', /as MM\/YY/],
      ['8-29', /as MM\/YY/],
      ['00/29', /from 01 to 12/],
      ['13/29', /from 01 to 12/],
      ['02/26', /has expired/],
      ['12/25', /has expired/],
      ['04/47', /too far in the future/],
    ])('Given the expiry %j in March 2026, then it is refused.', (expiry, message) => {
      expectOnlyFieldRefused(
        parseReceivingDetails('debit_card', { ...CARD_FORM, expiry }, NOW),
        'expiry',
        message,
      );
    });

    it.each([
      ['03/26', 3, 2026],
      ['3/26', 3, 2026],
      [' 03 / 26 ', 3, 2026],
      ['03/46', 3, 2046],
    ])('Given the expiry %j in March 2026, then it is accepted as month %d of %d.', (expiry, month, year) => {
      expect(detailsOf(parseReceivingDetails('debit_card', { ...CARD_FORM, expiry }, NOW))).toMatchObject({
        expiryMonth: month,
        expiryYear: year,
      });
    });

    it('Given a card that expires this month, then it is good until the month ends (in UTC).', () => {
      const lastMoment = new Date('2026-03-31T23:59:59.999Z');
      const nextMonth = new Date('2026-04-01T00:00:00.000Z');
      expect(parseReceivingDetails('debit_card', { ...CARD_FORM, expiry: '03/26' }, lastMoment).ok).toBe(
        true,
      );
      expectOnlyFieldRefused(
        parseReceivingDetails('debit_card', { ...CARD_FORM, expiry: '03/26' }, nextMonth),
        'expiry',
        /has expired/,
      );
    });
  });

  describe('wallet', () => {
    it('Given an e-mail address, then it is accepted, lower-cased.', () => {
      expect(
        detailsOf(parseReceivingDetails('wallet', { wallet_handle: '  Ada.Lovelace+Pay@Example.COM ' }, NOW)),
      ).toEqual({ method: 'wallet', walletHandle: 'ada.lovelace+pay@example.com' });
    });

    it('Given a phone number written with spaces, dashes and brackets, then it is kept in E.164.', () => {
      expect(detailsOf(parseReceivingDetails('wallet', { wallet_handle: '+1 (415) 555-0100' }, NOW))).toEqual(
        {
          method: 'wallet',
          walletHandle: '+14155550100',
        },
      );
    });

    it('Given nothing, then the wallet handle is refused.', () => {
      expectOnlyFieldRefused(parseReceivingDetails('wallet', {}, NOW), 'wallet_handle', /^Enter the e-mail/);
    });

    it.each([
      'ada@',
      '@example.com',
      'ada@example',
      'ada lovelace@example.com',
      'ada@@example.com',
      '.ada@example.com',
      'ada..l@example.com',
      `${'a'.repeat(65)}@example.com`,
      `ada@${'a'.repeat(250)}.com`,
    ])('Given the e-mail address %j, then it is refused.', (email) => {
      expectOnlyFieldRefused(
        parseReceivingDetails('wallet', { wallet_handle: email }, NOW),
        'wallet_handle',
        /valid e-mail address/,
      );
    });

    it.each(['4155550100', '+0155550100', '+1415555', '+1415555010012345', '+1 415 CALL ME'])(
      'Given the phone number %j, then it is refused: E.164 is + and 8 to 15 digits.',
      (phone) => {
        expectOnlyFieldRefused(
          parseReceivingDetails('wallet', { wallet_handle: phone }, NOW),
          'wallet_handle',
          /international format/,
        );
      },
    );
  });

  describe('the sandbox test values', () => {
    it('All pass the validator and lead to the outcome they are documented for.', () => {
      for (const [outcome, account] of Object.entries(SANDBOX.accounts)) {
        const details = detailsOf(
          parseReceivingDetails(
            'bank_transfer',
            { ...BANK_FORM, routing_number: SANDBOX.routingNumber, account_number: account },
            NOW,
          ),
        );
        expect([account, simulatedRailOutcome(details)]).toEqual([account, outcome]);
      }
      for (const [outcome, card] of Object.entries(SANDBOX.cards)) {
        const details = detailsOf(
          parseReceivingDetails('debit_card', { ...CARD_FORM, card_number: card }, NOW),
        );
        expect([card, simulatedRailOutcome(details)]).toEqual([card, outcome]);
      }
      for (const [outcome, handle] of [
        ...Object.entries(SANDBOX.phones),
        ...Object.entries(SANDBOX.emails),
      ]) {
        const details = detailsOf(parseReceivingDetails('wallet', { wallet_handle: handle }, NOW));
        expect([handle, simulatedRailOutcome(details)]).toEqual([handle, outcome]);
      }
    });

    it('The checks themselves agree with known numbers.', () => {
      expect(['110000000', '021000021', '011000015'].every(isValidAbaRoutingNumber)).toBe(true);
      expect(['110000001', '12345678', '11000000a'].some(isValidAbaRoutingNumber)).toBe(false);
      expect(
        ['4242424242424242', '4000000000000002', '4000000000090003', '79927398713'].every(passesLuhn),
      ).toBe(true);
      expect(['4000000000000003', '79927398710', '', '4242-4242'].some(passesLuhn)).toBe(false);
    });
  });

  describe('describing saved details without revealing them', () => {
    it.each<[ReceivingDetails, string]>([
      [
        {
          method: 'bank_transfer',
          accountHolder: 'Ada Lovelace',
          routingNumber: '110000000',
          accountNumber: '000123456789',
        },
        'Bank account ending 6789',
      ],
      [
        {
          method: 'debit_card',
          cardholderName: 'Ada Lovelace',
          cardNumber: '4242424242424242',
          expiryMonth: 8,
          expiryYear: 2029,
        },
        'Debit card ending 4242',
      ],
      [{ method: 'wallet', walletHandle: '+14155550100' }, 'Wallet phone number ending 0100'],
      [{ method: 'wallet', walletHandle: 'ada.lovelace@example.com' }, 'Wallet a***@example.com'],
    ])('Given %j, then it is described as %j.', (details, description) => {
      expect(describeReceivingDetails(details)).toBe(description);
      expect(description).not.toContain('Lovelace');
      expect(description).not.toContain('110000000');
    });
  });

  describe('recognising stored details', () => {
    it('Details the validator produced are recognised; anything else is not.', () => {
      const bank = detailsOf(parseReceivingDetails('bank_transfer', BANK_FORM, NOW));
      const card = detailsOf(parseReceivingDetails('debit_card', CARD_FORM, NOW));
      const wallet = detailsOf(parseReceivingDetails('wallet', { wallet_handle: 'ada@example.com' }, NOW));
      expect([bank, card, wallet].every(isReceivingDetails)).toBe(true);
      for (const other of [
        null,
        'bank_transfer',
        { method: 'cash' },
        { ...bank, accountNumber: '12' },
        { ...bank, routingNumber: '110000001' },
        { ...bank, accountHolder: ' padded' },
        { ...bank, extra: true },
        { ...card, cardNumber: '4242424242424241' },
        { ...card, expiryMonth: 13 },
        { ...card, expiryYear: '2029' },
        { ...wallet, walletHandle: 'ADA@example' },
        { method: 'wallet' },
      ]) {
        expect([other, isReceivingDetails(other)]).toEqual([other, false]);
      }
    });
  });
});
