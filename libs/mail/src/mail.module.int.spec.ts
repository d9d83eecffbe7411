import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AppConfig, loadConfig } from '@payouts/config';
import { APP_CONFIG } from '@payouts/platform';
import { SMTPServer } from 'smtp-server';
import { listMailbox, MailboxFolderMailer } from './mailbox-folder-mailer';
import { MailModule, mailboxDir } from './mail.module';
import { Mailer, MAILER } from './mailer';
import { SmtpMailer } from './smtp-mailer';

async function mailerFor(config: AppConfig): Promise<{ mailer: Mailer; close: () => Promise<void> }> {
  @Global()
  @Module({ providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] })
  class ConfigModule {}
  const app = await Test.createTestingModule({ imports: [ConfigModule, MailModule] }).compile();
  await app.init();
  return { mailer: app.get<Mailer>(MAILER), close: () => app.close() };
}

describe('the mail module', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'mail-module-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes to DATA_DIR/mailbox when SMTP_URL is unset', async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const { mailer, close } = await mailerFor(config);
    try {
      expect(mailer).toBeInstanceOf(MailboxFolderMailer);
      await mailer.send({ to: 'ada@example.com', subject: 'Hello', text: 'Hello.' });
      await expect(listMailbox(mailboxDir(config))).resolves.toMatchObject([{ to: 'ada@example.com' }]);
      expect(mailboxDir(config)).toBe(join(dataDir, 'mailbox'));
    } finally {
      await close();
    }
  });

  it('keeps the mail of an in-memory DATA_DIR (tests) in a folder of its own, removed when the app closes', async () => {
    const config = loadConfig({ DATA_DIR: ':memory:' });
    const first = await mailerFor(config);
    const second = await mailerFor(config);
    const dirOf = (mailer: Mailer): string => {
      if (!(mailer instanceof MailboxFolderMailer)) throw new Error('expected the mailbox folder');
      return mailer.dir;
    };
    try {
      await first.mailer.send({ to: 'ada@example.com', subject: 'Hello', text: 'Hello.' });
      await second.mailer.send({ to: 'bob@example.com', subject: 'Hello', text: 'Hello.' });
      // Two apps in one process (one test worker) never share or remove each other's mail.
      expect(dirOf(first.mailer)).not.toBe(dirOf(second.mailer));
      expect(dirOf(first.mailer).startsWith(tmpdir())).toBe(true);
      await expect(listMailbox(dirOf(first.mailer))).resolves.toMatchObject([{ to: 'ada@example.com' }]);
    } finally {
      await first.close();
    }
    expect(existsSync(dirOf(first.mailer))).toBe(false);
    expect(existsSync(dirOf(second.mailer))).toBe(true);
    await second.close();
    expect(existsSync(dirOf(second.mailer))).toBe(false);
  });

  it('sends through SMTP_URL from MAIL_FROM when it is set', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      logger: false,
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          received.push(
            `${session.envelope.mailFrom ? session.envelope.mailFrom.address : ''} -> ${session.envelope.rcptTo.map((r) => r.address).join(',')}`,
          );
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.server.address() as AddressInfo;
    const config = loadConfig({
      DATA_DIR: dataDir,
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Refunds <refunds@example.com>',
    });
    const { mailer, close } = await mailerFor(config);
    try {
      expect(mailer).toBeInstanceOf(SmtpMailer);
      await mailer.send({ to: 'ada@example.com', subject: 'Hello', text: 'Hello.' });
      expect(received).toEqual(['refunds@example.com -> ada@example.com']);
      await expect(listMailbox(mailboxDir(config))).resolves.toEqual([]);
    } finally {
      await close(); // closes the SMTP transport (onApplicationShutdown)
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
