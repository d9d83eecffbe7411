import { Inject, Injectable } from '@nestjs/common';
import { RecipientFlow, VerificationCodeStore } from '@payouts/claims';
import type { CodeCheck } from '@payouts/claims';
import { MAILER } from '@payouts/mail';
import type { Mailer } from '@payouts/mail';
import { formField, formTokenIsValid } from '@payouts/web';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { environmentOfRoute } from '../auth/request-environment';
import { inBothEnvironments, recipientActions, RecipientPageReplies } from './recipient-page-replies';

/**
 * The e-mail check before a claim-link payout may be chosen: send a one-time code to the
 * customer's address, then verify the code the recipient types in. Every POST carries a CSRF
 * token of the page session's secret, checked once the session is known.
 */
@Injectable()
export class EmailVerificationRoutes {
  constructor(
    private readonly flow: RecipientFlow,
    private readonly replies: RecipientPageReplies,
    private readonly codes: VerificationCodeStore,
    @Inject(MAILER) private readonly mailer: Mailer,
  ) {}

  register(scope: FastifyInstance): void {
    for (const path of inBothEnvironments('/recipient/send-code')) {
      scope.post(path, (request, reply) => this.sendCode(request, reply));
    }
    for (const path of inBothEnvironments('/recipient/verify')) {
      scope.post(path, (request, reply) => this.verify(request, reply));
    }
  }

  /**
   * A post of the e-mail step: its session and the payout's current link, the form's token
   * checked; null once answered (the 403 page of a form from elsewhere, or, with nothing left to
   * verify, a 303 back to the page).
   */
  private async codeStep(request: FastifyRequest, reply: FastifyReply) {
    const environment = environmentOfRoute(request);
    const { session, loaded } = await this.replies.session(request, environment);
    if (!formTokenIsValid(request, reply)) return null;
    const { payout } = loaded;
    if (payout.delivery !== 'link' || !payout.currentLink || session.verified) {
      void this.replies.seeOther(reply, recipientActions(environment).page);
      return null;
    }
    return { environment, session, loaded, payout, linkId: payout.currentLink.linkId };
  }

  private async sendCode(request: FastifyRequest, reply: FastifyReply) {
    const step = await this.codeStep(request, reply);
    if (!step) return reply;
    const { environment, loaded, payout } = step;
    const issued = await this.codes.issue({
      payoutId: payout.payoutId,
      linkId: step.linkId,
      now: this.flow.now(environment),
    });
    if (!issued.ok) {
      void reply.header('retry-after', String(issued.retryAfterSeconds));
      return this.replies.verifyView(reply, environment, loaded, 429, {
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

  private async verify(request: FastifyRequest, reply: FastifyReply) {
    const step = await this.codeStep(request, reply);
    if (!step) return reply;
    const { environment, session, loaded, payout } = step;
    const now = this.flow.now(environment);
    const code = (formField(request.body, 'code') ?? '').replace(/\s+/g, '');
    const checked = /^\d{6}$/.test(code)
      ? await this.codes.verify({
          payoutId: payout.payoutId,
          linkId: step.linkId,
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
    if (refusal.retryAfterSeconds) void reply.header('retry-after', String(refusal.retryAfterSeconds));
    return this.replies.verifyView(reply, environment, loaded, refusal.status, {
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
