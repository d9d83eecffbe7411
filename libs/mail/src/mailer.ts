import { EMAIL_ADDRESS_MAX_LENGTH, isDeliverableEmailAddress } from '@payouts/domain';

/**
 * Sending e-mail (the recipients' verification codes). A port with two adapters: SMTP
 * (SmtpMailer) and, for development, a folder of JSON files (MailboxFolderMailer). Messages carry
 * secrets (codes), so no adapter logs a message's text, html or subject, and no error carries them.
 */
export interface MailMessage {
  /** One recipient address. */
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Resolves once the message was handed over (accepted by the SMTP server, or written). */
  send(message: MailMessage): Promise<void>;
}

/** Nest token for the Mailer. */
export const MAILER = Symbol('MAILER');

/** Limits on what one message may hold: our own messages are a few lines, never near these. */
export const MAIL_LIMITS = {
  maxAddressLength: EMAIL_ADDRESS_MAX_LENGTH,
  maxSubjectLength: 200,
  maxTextBytes: 100_000,
  maxHtmlBytes: 500_000,
} as const;

/**
 * Refuses (RangeError) a message no adapter should send: several or malformed recipients, a line
 * break in the subject or the address (header injection), empty or oversized parts. The error
 * names the field, never its value.
 */
export function checkMailMessage(message: MailMessage): void {
  if (typeof message !== 'object' || message === null) throw new RangeError('the message must be an object');
  const { to, subject, text, html } = message;
  // The same rule Create Payout applies to customer_email, so no payout waits on an address refused here.
  if (!isDeliverableEmailAddress(to)) {
    throw new RangeError('to must be one e-mail address');
  }
  if (
    typeof subject !== 'string' ||
    subject.trim() === '' ||
    subject.length > MAIL_LIMITS.maxSubjectLength ||
    /[\r\n]/.test(subject)
  ) {
    throw new RangeError(`subject must be one line of 1 to ${MAIL_LIMITS.maxSubjectLength} characters`);
  }
  if (typeof text !== 'string' || text.trim() === '' || Buffer.byteLength(text) > MAIL_LIMITS.maxTextBytes) {
    throw new RangeError(`text must be non-empty and at most ${MAIL_LIMITS.maxTextBytes} bytes`);
  }
  if (
    html !== undefined &&
    (typeof html !== 'string' || Buffer.byteLength(html) > MAIL_LIMITS.maxHtmlBytes)
  ) {
    throw new RangeError(`html must be a string of at most ${MAIL_LIMITS.maxHtmlBytes} bytes`);
  }
}
