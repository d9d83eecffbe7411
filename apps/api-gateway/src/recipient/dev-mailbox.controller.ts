import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { AppConfig } from '@payouts/config';
import { listMailbox, MAILER, MailboxFolderMailer, readMailboxMessage } from '@payouts/mail';
import type { Mailer } from '@payouts/mail';
import { APP_CONFIG } from '@payouts/platform';
import type { FastifyReply } from 'fastify';
import { setPageHeaders } from './page-headers';
import { html, SafeHtml } from './views/html';
import { layout } from './views/layout';

/**
 * The development mailbox: in the embedded start without SMTP_URL, e-mails (verification codes)
 * are written under DATA_DIR/mailbox and read here. Anywhere else (a database server, or real
 * SMTP) it does not exist: 404.
 */
@ApiExcludeController()
@Controller('dev/mailbox')
export class DevMailboxController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MAILER) private readonly mailer: Mailer,
  ) {}

  /** The folder the mailer writes to (it alone knows where an in-memory DATA_DIR's mail goes). */
  private get dir(): string | undefined {
    if (this.config.databaseUrl || !(this.mailer instanceof MailboxFolderMailer)) return undefined;
    return this.mailer.dir;
  }

  @Get()
  async list(@Res() reply: FastifyReply) {
    const dir = this.dir;
    if (dir === undefined) return this.notFound(reply);
    const entries = await listMailbox(dir);
    return this.page(
      reply,
      'Development mailbox',
      html`<p>E-mails the service would have sent (SMTP_URL is not set). Newest first.</p>
        <ul>
          ${entries.map(
            (entry) =>
              html`<li>
                <a href="/dev/mailbox/${entry.id}">${entry.subject}</a> to ${entry.to}
                <small>${entry.sentAt}</small>
              </li>`,
          )}
        </ul>`,
    );
  }

  @Get(':id')
  async show(@Param('id') id: string, @Res() reply: FastifyReply) {
    const dir = this.dir;
    if (dir === undefined) return this.notFound(reply);
    const message = await readMailboxMessage(dir, id);
    if (!message) return this.notFound(reply);
    return this.page(
      reply,
      message.subject,
      html`<dl>
          <dt>To</dt>
          <dd>${message.to}</dd>
          <dt>From</dt>
          <dd>${message.from}</dd>
          <dt>Sent</dt>
          <dd>${message.sentAt}</dd>
        </dl>
        <pre>${message.text}</pre>
        <p><a href="/dev/mailbox">All messages</a></p>`,
    );
  }

  private page(reply: FastifyReply, title: string, body: SafeHtml) {
    setPageHeaders(reply, { https: false });
    void reply.type('text/html; charset=utf-8').send(layout({ title, environment: 'production' }, body));
  }

  private notFound(reply: FastifyReply) {
    void reply
      .status(404)
      .type('application/json')
      .send({ error: { code: 'not_found', message: 'no such endpoint' } });
  }
}
