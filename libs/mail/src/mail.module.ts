import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger, Module } from '@nestjs/common';
import type { AppConfig } from '@payouts/config';
import { APP_CONFIG } from '@payouts/platform';
import { MailboxFolderMailer } from './mailbox-folder-mailer';
import { Mailer, MAILER } from './mailer';
import { SmtpMailer } from './smtp-mailer';

/** Where the development mailbox of an embedded database on disk lives: `mailbox` under DATA_DIR. */
export function mailboxDir(config: Pick<AppConfig, 'dataDir'>): string {
  return join(config.dataDir, 'mailbox');
}

/**
 * The Mailer the configuration asks for: SMTP when SMTP_URL is set, else the development mailbox
 * folder. The log line names the server's host, never the URL (it may hold a password).
 */
export function createMailer(config: Pick<AppConfig, 'smtpUrl' | 'mailFrom' | 'dataDir'>): Mailer {
  const logger = new Logger('Mail');
  if (config.smtpUrl) {
    const url = new URL(config.smtpUrl);
    logger.log(`e-mail goes through ${url.protocol}//${url.host}`);
    return new SmtpMailer(config.smtpUrl, config.mailFrom);
  }
  if (config.dataDir === ':memory:') {
    // An in-memory database (tests) leaves nothing behind when it closes, and neither does its
    // mail: a folder of this app's own (a test worker runs several apps), removed at shutdown.
    const dir = join(tmpdir(), `payouts-mailbox-${process.pid}-${randomBytes(8).toString('hex')}`);
    return new MailboxFolderMailer(dir, config.mailFrom, { removeOnShutdown: true });
  }
  const dir = mailboxDir(config);
  logger.warn(`SMTP_URL is not set: e-mails are written to ${dir}, not sent (development only)`);
  return new MailboxFolderMailer(dir, config.mailFrom);
}

/** Provides MAILER (the port Mailer), chosen by configuration. Needs APP_CONFIG (InfrastructureModule). */
@Module({
  providers: [
    { provide: MAILER, useFactory: (config: AppConfig) => createMailer(config), inject: [APP_CONFIG] },
  ],
  exports: [MAILER],
})
export class MailModule {}
