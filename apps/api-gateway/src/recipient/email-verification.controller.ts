import { Controller, Inject, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RecipientFlow, VerificationCodeStore } from '@payouts/claims';
import type { CodeCheck } from '@payouts/claims';
import { MAILER } from '@payouts/mail';
import type { Mailer } from '@payouts/mail';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { environmentOfRoute } from '../auth/request-environment';
import { RecipientPageFilter } from './recipient-page.filter';
import { recipientActions, RecipientPageReplies } from './recipient-page-replies';

/**
 * The e-mail check before a claim-link payout may be chosen: send a one-time code to the
 * customer's address, then verify the code the recipient types in. Every POST carries the
 * session's CSRF token.
 */
@ApiExcludeController()
@UseFilters(RecipientPageFilter)
@Controller()
export class EmailVerificationController {
  constructor(
    private readonly flow: RecipientFlow,
    private readonly replies: RecipientPageReplies,
    private readonly codes: VerificationCodeStore,
    @Inject(MAILER) private readonly mailer: Mailer,
  ) {}

  @Post(['recipient/send-code', 'sandbox/recipient/send-code'])
  async sendCode(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const environment = environmentOfRoute(request);
    const { session, loaded } = await this.flow.current(environment, this.replies.cookie(request));
    this.replies.checkCsrf(session, request);
    const payout = loaded.payout;
    if (payout.delivery !== 'link' || !payout.currentLink || session.verified) {
      return this.replies.seeOther(reply, recipientActions(environment).page);
    }
    const issued = await this.codes.issue({
      payoutId: payout.payoutId,
      linkId: payout.currentLink.linkId,
      now: this.flow.now(environment),
    });
    if (!issued.ok) {
      reply.header('retry-after', String(issued.retryAfterSeconds));
      return this.replies.verifyView(reply, environment, loaded, session, 429, {
        codeSent: true,
        message: `A code was sent recently. You can ask for a new one in ${issued.retryAfterSeconds} seconds.`,
      });
    }
    await this.mailer.send({
      to: payout.customerEmail ?? '',
      subject: 'Your payout verification code',
      text: [
        `Your verification code is ${issued.code}.`,
        '',
        'It is valid for 10 minutes. If you did not ask for it, ignore this e-mail.',
      ].join('\n'),
    });
    return this.replies.seeOther(reply, `${recipientActions(environment).page}?sent=1`);
  }

  @Post(['recipient/verify', 'sandbox/recipient/verify'])
  async verify(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const environment = environmentOfRoute(request);
    const { session, loaded } = await this.flow.current(environment, this.replies.cookie(request));
    const form = this.replies.checkCsrf(session, request);
    const payout = loaded.payout;
    if (payout.delivery !== 'link' || !payout.currentLink || session.verified) {
      return this.replies.seeOther(reply, recipientActions(environment).page);
    }
    const now = this.flow.now(environment);
    const code = (form.code ?? '').replace(/\s+/g, '');
    const checked = /^\d{6}$/.test(code)
      ? await this.codes.verify({
          payoutId: payout.payoutId,
          linkId: payout.currentLink.linkId,
          code,
          clientKey: request.ip,
          now,
        })
      : ({ outcome: 'wrong', triesLeft: -1 } as const);
    if (checked.outcome === 'verified') {
      await this.flow.markVerified(session, now);
      return this.replies.seeOther(reply, recipientActions(environment).page);
    }
    const refusal = codeRefusal(checked);
    if (refusal.retryAfterSeconds) reply.header('retry-after', String(refusal.retryAfterSeconds));
    return this.replies.verifyView(reply, environment, loaded, session, refusal.status, {
      codeSent: true,
      error: refusal.message,
    });
  }
}

function codeRefusal(checked: Exclude<CodeCheck, { outcome: 'verified' }>): {
  status: number;
  message: string;
  retryAfterSeconds?: number;
} {
  switch (checked.outcome) {
    case 'wrong':
      return {
        status: 422,
        message:
          checked.triesLeft >= 0
            ? `That code is not right. ${checked.triesLeft} ${checked.triesLeft === 1 ? 'try' : 'tries'} left.`
            : 'Enter the 6-digit code from the e-mail.',
      };
    case 'locked':
      return { status: 429, message: 'Too many wrong codes. Ask for a new code to try again.' };
    case 'expired':
      return { status: 422, message: 'That code has expired. Ask for a new one.' };
    case 'no_code':
      return { status: 422, message: 'Ask for a code first.' };
    case 'rate_limited':
      return {
        status: 429,
        message: `Too many attempts. Try again in ${checked.retryAfterSeconds} seconds.`,
        retryAfterSeconds: checked.retryAfterSeconds,
      };
  }
}
