import { checkMailMessage, MAIL_LIMITS, MailMessage } from './mailer';

const MESSAGE: MailMessage = {
  to: 'recipient@example.com',
  subject: 'Your code',
  text: 'Your code is 123456.',
};

describe('what a mailer agrees to send', () => {
  it('accepts one address, a one-line subject and a text, with or without html', () => {
    expect(() => checkMailMessage(MESSAGE)).not.toThrow();
    expect(() => checkMailMessage({ ...MESSAGE, html: '<p>Your code is 123456.</p>' })).not.toThrow();
  });

  it.each([
    ['no address', { to: '' }, /^to must be/],
    ['a display name', { to: 'Ada <ada@example.com>' }, /^to must be/],
    ['two addresses', { to: 'a@example.com, b@example.com' }, /^to must be/],
    ['a header injected after the address', { to: 'a@example.com\r\nBcc: b@example.com' }, /^to must be/],
    ['an address without a domain', { to: 'ada@localhost' }, /^to must be/],
    ['an overlong address', { to: `${'a'.repeat(250)}@example.com` }, /^to must be/],
    ['an empty subject', { subject: ' ' }, /^subject must be/],
    ['a header injected in the subject', { subject: 'Hi\nBcc: b@example.com' }, /^subject must be/],
    ['an overlong subject', { subject: 's'.repeat(MAIL_LIMITS.maxSubjectLength + 1) }, /^subject must be/],
    ['an empty text', { text: '' }, /^text must be/],
    ['an oversized text', { text: 'x'.repeat(MAIL_LIMITS.maxTextBytes + 1) }, /^text must be/],
    ['an oversized html', { html: 'x'.repeat(MAIL_LIMITS.maxHtmlBytes + 1) }, /^html must be/],
  ])('refuses %s, naming the field but not its value', (_what, change, message) => {
    const refused = { ...MESSAGE, ...change } as MailMessage;
    expect(() => checkMailMessage(refused)).toThrow(RangeError);
    expect(() => checkMailMessage(refused)).toThrow(message);
    try {
      checkMailMessage(refused);
    } catch (error) {
      expect((error as Error).message).not.toContain('example.com');
    }
  });

  it('refuses something that is not a message', () => {
    expect(() => checkMailMessage(null as unknown as MailMessage)).toThrow(RangeError);
  });
});
