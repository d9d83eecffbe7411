import { OnApplicationShutdown } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { checkMailMessage, MailMessage, Mailer } from './mailer';

/** Timeouts short enough that a page waiting on a send answers in seconds, not nodemailer's minutes. */
export const SMTP_TIMEOUTS_MS = { connection: 10_000, greeting: 10_000, socket: 30_000 } as const;

/** Refused by the SMTP server or not delivered to it. The message says why, never what was sent. */
export class MailDeliveryError extends Error {}

/**
 * Sends through an SMTP server named by a URL (`smtp://user:password@host:587`, STARTTLS when the
 * server offers it; `smtps://…:465`, TLS from the start). nodemailer's own logging stays off: it
 * would print the messages.
 */
export class SmtpMailer implements Mailer, OnApplicationShutdown {
  readonly #transport: Transporter;
  readonly #from: string;

  constructor(smtpUrl: string, from: string) {
    const url = new URL(smtpUrl);
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
      throw new RangeError('the SMTP URL must start with smtp:// or smtps://');
    }
    this.#transport = createTransport({
      url: smtpUrl,
      connectionTimeout: SMTP_TIMEOUTS_MS.connection,
      greetingTimeout: SMTP_TIMEOUTS_MS.greeting,
      socketTimeout: SMTP_TIMEOUTS_MS.socket,
      logger: false,
      debug: false,
    });
    this.#from = from;
  }

  async send(message: MailMessage): Promise<void> {
    checkMailMessage(message);
    try {
      await this.#transport.sendMail({
        from: this.#from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html === undefined ? {} : { html: message.html }),
      });
    } catch (error) {
      // nodemailer's errors describe the connection or the server's answer; no cause is kept, so
      // a logger that prints causes cannot reach the message through it.
      const reason = error instanceof Error ? error.message : 'unknown error';
      throw new MailDeliveryError(`the e-mail was not sent: ${reason}`);
    }
  }

  onApplicationShutdown(): void {
    this.#transport.close();
  }
}
