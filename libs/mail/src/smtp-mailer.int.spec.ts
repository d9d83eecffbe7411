import { AddressInfo } from 'node:net';
import { SMTPServer, SMTPServerOptions } from 'smtp-server';
import { MailDeliveryError, SmtpMailer } from './smtp-mailer';

/** What the test SMTP server received: the envelope and the raw message. */
interface Received {
  mailFrom: string;
  rcptTo: string[];
  user: string | undefined;
  raw: string;
}

/** A real SMTP server (smtp-server) on an ephemeral loopback port, without TLS. */
async function startServer(
  options: Partial<SMTPServerOptions> = {},
): Promise<{ url: (auth?: string) => string; received: Received[]; stop: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: (auth) => `smtp://${auth ? `${auth}@` : ''}127.0.0.1:${port}`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The message's headers (unfolded) and its body. */
function parse(raw: string): { headers: Record<string, string>; body: string } {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: rest.join('\r\n\r\n') };
}

/** Quoted-printable soft line breaks and escapes undone, enough to read our ASCII bodies. */
function decodeQuotedPrintable(body: string): string {
  return body
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

describe('sending e-mail through an SMTP server', () => {
  const FROM = 'Payouts <no-reply@pay.example.com>';

  it('delivers the message to the server: envelope, headers and text', async () => {
    const server = await startServer();
    const mailer = new SmtpMailer(server.url(), FROM);
    try {
      await mailer.send({
        to: 'recipient@example.com',
        subject: 'Your payout verification code',
        text: 'Your verification code is 123456.\n\nIt is valid for 10 minutes.',
      });
      expect(server.received).toHaveLength(1);
      const [message] = server.received;
      expect(message!.mailFrom).toBe('no-reply@pay.example.com');
      expect(message!.rcptTo).toEqual(['recipient@example.com']);
      const { headers, body } = parse(message!.raw);
      expect(headers.from).toBe('Payouts <no-reply@pay.example.com>');
      expect(headers.to).toBe('recipient@example.com');
      expect(headers.subject).toBe('Your payout verification code');
      expect(headers['content-type']).toMatch(/^text\/plain/);
      expect(decodeQuotedPrintable(body)).toContain('Your verification code is 123456.');
    } finally {
      mailer.onApplicationShutdown();
      await server.stop();
    }
  });

  it('sends text and html as alternatives when both are given', async () => {
    const server = await startServer();
    const mailer = new SmtpMailer(server.url(), FROM);
    try {
      await mailer.send({
        to: 'recipient@example.com',
        subject: 'Code',
        text: 'Your code is 654321.',
        html: '<p>Your code is <strong>654321</strong>.</p>',
      });
      const { headers, body } = parse(server.received[0]!.raw);
      expect(headers['content-type']).toMatch(/^multipart\/alternative/);
      const decoded = decodeQuotedPrintable(body);
      expect(decoded).toContain('Content-Type: text/plain');
      expect(decoded).toContain('Your code is 654321.');
      expect(decoded).toContain('Content-Type: text/html');
      expect(decoded).toContain('<strong>654321</strong>');
    } finally {
      mailer.onApplicationShutdown();
      await server.stop();
    }
  });

  it('logs in with the credentials in the URL', async () => {
    const server = await startServer({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === 'mailer' && auth.password === 'p@ss word') callback(null, { user: 'mailer' });
        else callback(new Error('Invalid username or password'));
      },
    });
    const good = new SmtpMailer(server.url(`mailer:${encodeURIComponent('p@ss word')}`), FROM);
    const bad = new SmtpMailer(server.url('mailer:wrong'), FROM);
    try {
      await good.send({ to: 'recipient@example.com', subject: 'Hello', text: 'Hello.' });
      expect(server.received.map((m) => m.user)).toEqual(['mailer']);
      await expect(
        bad.send({ to: 'recipient@example.com', subject: 'Hello', text: 'Hello.' }),
      ).rejects.toThrow(MailDeliveryError);
      expect(server.received).toHaveLength(1);
    } finally {
      good.onApplicationShutdown();
      bad.onApplicationShutdown();
      await server.stop();
    }
  });

  it('fails when the server refuses the recipient, without the message in the error', async () => {
    const server = await startServer({
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      },
    });
    const mailer = new SmtpMailer(server.url(), FROM);
    try {
      const error = await mailer
        .send({ to: 'nobody@example.com', subject: 'Code 987654', text: 'Your code is 987654.' })
        .then(
          () => null,
          (e: unknown) => e as Error,
        );
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect(error!.message).toMatch(/^the e-mail was not sent: /);
      expect(error!.message).not.toContain('987654');
      expect(error!.cause).toBeUndefined();
      expect(server.received).toHaveLength(0);
    } finally {
      mailer.onApplicationShutdown();
      await server.stop();
    }
  });

  it('fails when nothing listens at the address', async () => {
    const server = await startServer();
    const url = server.url();
    await server.stop();
    const mailer = new SmtpMailer(url, FROM);
    await expect(mailer.send({ to: 'recipient@example.com', subject: 'Hi', text: 'Hi.' })).rejects.toThrow(
      MailDeliveryError,
    );
    mailer.onApplicationShutdown();
  });

  it('refuses a malformed message before connecting', async () => {
    const server = await startServer();
    const mailer = new SmtpMailer(server.url(), FROM);
    try {
      await expect(
        mailer.send({ to: 'a@example.com\r\nBcc: b@example.com', subject: 'Hi', text: 'Hi.' }),
      ).rejects.toThrow(RangeError);
      await expect(
        mailer.send({ to: 'a@example.com', subject: 'Hi\r\nBcc: b@example.com', text: 'Hi.' }),
      ).rejects.toThrow(RangeError);
      expect(server.received).toHaveLength(0);
    } finally {
      mailer.onApplicationShutdown();
      await server.stop();
    }
  });

  it('refuses a URL that is not smtp:// or smtps://', () => {
    expect(() => new SmtpMailer('http://127.0.0.1:25', FROM)).toThrow(/smtp:\/\/ or smtps:\/\//);
  });
});
