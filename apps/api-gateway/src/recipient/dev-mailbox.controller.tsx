import { Controller, Get, Inject, Param, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { listMailbox, MAILER, MailboxFolderMailer, readMailboxMessage } from '@payouts/mail';
import type { Mailer } from '@payouts/mail';
import { notFound } from '@payouts/http';
import { applyPageHeaders, sendPage } from '@payouts/web';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ComponentChildren } from 'preact';
import { DevMailboxGuard } from './dev-mailbox.guard';
import { RecipientPage } from './views/layout';

/**
 * The development mailbox: in the embedded start without SMTP_URL, e-mails (verification codes)
 * are written under DATA_DIR/mailbox, and with DEV_MAILBOX=true the operator reads them here
 * (Authorization: Bearer <OPERATOR_TOKEN>). Otherwise it does not exist: 404 (DevMailboxGuard).
 * A Nest controller, so that the guard's refusals are the API's JSON; its pages are the kit's.
 */
@ApiExcludeController()
@Controller('dev/mailbox')
@UseGuards(DevMailboxGuard)
export class DevMailboxController {
  constructor(@Inject(MAILER) private readonly mailer: Mailer) {}

  /** The folder the mailer writes to (it alone knows where an in-memory DATA_DIR's mail goes). */
  private get dir(): string {
    // Configuration refuses DEV_MAILBOX with SMTP_URL, so the mailer is the folder's.
    if (!(this.mailer instanceof MailboxFolderMailer)) throw notFound('endpoint');
    return this.mailer.dir;
  }

  @Get()
  async list(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const entries = await listMailbox(this.dir);
    this.page(
      request,
      reply,
      'Development mailbox',
      <>
        <p>E-mails the service would have sent (SMTP_URL is not set). Newest first.</p>
        <ul>
          {entries.map((entry) => (
            <li key={entry.id}>
              <a href={`/dev/mailbox/${entry.id}`}>{entry.subject}</a>
              {` to ${entry.to} `}
              <small>{entry.sentAt}</small>
            </li>
          ))}
        </ul>
      </>,
    );
  }

  @Get(':id')
  async show(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const message = await readMailboxMessage(this.dir, id);
    if (!message) throw notFound('message');
    this.page(
      request,
      reply,
      message.subject,
      <>
        <dl>
          <dt>To</dt>
          <dd>{message.to}</dd>
          <dt>From</dt>
          <dd>{message.from}</dd>
          <dt>Sent</dt>
          <dd>{message.sentAt}</dd>
        </dl>
        <pre>{message.text}</pre>
        <p>
          <a href="/dev/mailbox">All messages</a>
        </p>
      </>,
    );
  }

  private page(request: FastifyRequest, reply: FastifyReply, title: string, body: ComponentChildren) {
    applyPageHeaders(request, reply, false);
    void sendPage(
      reply,
      200,
      <RecipientPage title={title} environment="production">
        {body}
      </RecipientPage>,
    );
  }
}
