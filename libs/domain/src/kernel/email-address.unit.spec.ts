import { EMAIL_ADDRESS_MAX_LENGTH, isDeliverableEmailAddress } from './email-address';

/** 254 characters: the longest address a mail server must take. */
const LONGEST = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;

describe('an e-mail address we can deliver to', () => {
  it.each([
    ['a plain address', 'ana@example.com'],
    ['plus-addressing', 'ana+refunds@example.com'],
    ['dots in the local part', 'ana.maria.lopez@example.com'],
    ['a subdomain', 'ana@mail.eu.example.com'],
    ['digits', '42@123.example.com'],
    ['hyphens', 'ana-maria@shop-1.example-mail.com'],
    ['upper case', 'Ana@Example.COM'],
    ['the other atext characters', "o'neil!#$%&*/=?^_`{|}~@example.com"],
    ['an international domain name', 'ana@bücher.example'],
    ['an international top-level domain', 'ana@例え.テスト'],
    ['a punycode domain', 'ana@xn--bcher-kva.example'],
    ['a punycode top-level domain', 'ana@example.xn--p1ai'],
    ['a one-character local part', 'a@example.com'],
    ['the longest address', LONGEST],
  ])('accepts %s: %j', (_what, address) => {
    expect(isDeliverableEmailAddress(address)).toBe(true);
  });

  it.each([
    ['nothing', ''],
    ['no @', 'ana.example.com'],
    ['no local part', '@example.com'],
    ['no domain', 'ana@'],
    ['a domain without a dot', 'ana@localhost'],
    ['two @', 'ana@shop@example.com'],
    ['a header injected after a quoted local part (CR LF)', '"a\r\nBcc: x@evil.com"@example.com'],
    ['a header injected after the address (CR LF)', 'ana@example.com\r\nBcc: x@evil.com'],
    ['a bare line feed', 'ana@example.com\nBcc: x@evil.com'],
    ['a quoted local part with a space', '"a b"@example.com'],
    ['a quoted local part without a space', '"ana"@example.com'],
    ['a space', 'ana maria@example.com'],
    ['a leading space', ' ana@example.com'],
    ['a trailing space', 'ana@example.com '],
    ['a tab', 'ana\t@example.com'],
    ['a no-break space', 'ana\u00a0@example.com'],
    ['a line separator', 'ana\u2028@example.com'],
    ['a NUL', 'ana\u0000@example.com'],
    ['a control character', 'ana\u0001@example.com'],
    ['two addresses separated by a comma', 'a@example.com,b@example.com'],
    ['two addresses separated by a comma and a space', 'a@example.com, b@example.com'],
    ['two addresses separated by a semicolon', 'a@example.com;b@example.com'],
    ['a display name', 'Ana <ana@example.com>'],
    ['an address in angle brackets', '<ana@example.com>'],
    ['a quoted display name', '"Ana" <ana@example.com>'],
    ['a comment', 'ana(comment)@example.com'],
    ['a backslash', 'an\\a@example.com'],
    ['a colon (a group)', 'list:ana@example.com'],
    ['a leading dot', '.ana@example.com'],
    ['a trailing dot in the local part', 'ana.@example.com'],
    ['two dots in a row', 'ana..maria@example.com'],
    ['a non-ASCII local part (needs SMTPUTF8)', 'josé@example.com'],
    ['a domain literal', 'ana@[192.0.2.1]'],
    ['an IP address as the domain', 'ana@192.0.2.1'],
    ['an all-digit top-level domain', 'ana@example.123'],
    ['a one-letter top-level domain', 'ana@example.c'],
    ['an underscore in the domain', 'ana@shop_name.example.com'],
    ['a trailing dot in the domain', 'ana@example.com.'],
    ['an empty domain label', 'ana@example..com'],
    ['a leading dot in the domain', 'ana@.example.com'],
    ['a label starting with a hyphen', 'ana@-shop.example.com'],
    ['a label ending with a hyphen', 'ana@shop-.example.com'],
    ['a 64-character domain label', `ana@${'b'.repeat(64)}.com`],
    ['a 65-character local part', `${'a'.repeat(65)}@example.com`],
    ['full-width letters in the domain', 'ana@ｅxample.com'],
    [
      'a 255-character address',
      `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(57)}.com`,
    ],
  ])('refuses %s: %j', (_what, address) => {
    expect(isDeliverableEmailAddress(address)).toBe(false);
  });

  it('refuses what is not a string', () => {
    for (const value of [undefined, null, 42, ['ana@example.com'], { to: 'ana@example.com' }]) {
      expect(isDeliverableEmailAddress(value)).toBe(false);
    }
  });

  it('caps the length at the 254 characters of an SMTP path', () => {
    expect(EMAIL_ADDRESS_MAX_LENGTH).toBe(254);
    expect(LONGEST).toHaveLength(EMAIL_ADDRESS_MAX_LENGTH);
  });
});
