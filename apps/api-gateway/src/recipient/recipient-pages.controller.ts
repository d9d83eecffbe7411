import { Controller, Get, Inject, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import { originOf } from '@payouts/accounts';
import {
  RECEIVING_DETAILS_VAULT,
  ReceivingDetailsChangedError,
  VerificationCodeStore,
} from '@payouts/claims';
import type { CodeCheck, PageSession, ReceivingDetailsVault } from '@payouts/claims';
import {
  describeReceivingDetails,
  DomainError,
  Environment,
  parseReceivingDetails,
  Payout,
  RECEIVING_METHODS,
  ReceivingMethod,
} from '@payouts/domain';
import { MAILER } from '@payouts/mail';
import type { Mailer } from '@payouts/mail';
import { ConfirmPayoutCommand } from '@payouts/payouts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { environmentOfPath } from '../auth/request-environment';
import { maskEmail } from './mask-email';
import { readCookie, SESSION_COOKIE, sessionCookie, setPageHeaders } from './page-headers';
import { LoadedPayout, RecipientFlow } from './recipient-flow';
import { formExpired } from './recipient-errors';
import { RecipientPageFilter } from './recipient-page.filter';
import { STYLESHEET, STYLESHEET_PATH } from './views/layout';
import {
  chooseMethodPage,
  confirmPage,
  METHOD_LABELS,
  PayoutSummary,
  statusPage,
  verifyEmailPage,
} from './views/pages';

type Form = Record<string, string | undefined>;

/**
 * The recipient's hosted pages at `payout_url` (spec 1): plain server-rendered forms. The token in
 * a claim link or handoff URL is exchanged at once for an HttpOnly session cookie and the browser
 * is sent on to `/recipient`, so the token leaves the address bar and never travels as a referrer.
 * Every POST carries the session's CSRF token.
 */
@ApiExcludeController()
@UseFilters(RecipientPageFilter)
@Controller()
export class RecipientPagesController {
  constructor(
    private readonly flow: RecipientFlow,
    private readonly commands: CommandBus,
    private readonly codes: VerificationCodeStore,
    @Inject(RECEIVING_DETAILS_VAULT) private readonly vault: ReceivingDetailsVault,
    @Inject(MAILER) private readonly mailer: Mailer,
  ) {}

  @Get(STYLESHEET_PATH)
  stylesheet(@Res() reply: FastifyReply) {
    void reply
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .type('text/css; charset=utf-8')
      .send(STYLESHEET);
  }

  @Get(['claim/:token', 'sandbox/claim/:token'])
  async claim(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const environment = environmentOfPath(request.url);
    const entered = await this.flow.enterLink(environment, token);
    if (entered.kind === 'status') {
      // Gone for good (expired or cancelled): 410; otherwise it simply shows where the payout stands.
      const { payout } = entered.loaded;
      const gone = ['expired', 'cancelled'].includes(payout.status) ? 410 : 200;
      return this.html(reply, payout, gone, this.statusView(environment, entered.loaded));
    }
    this.startSession(reply, environment, entered.cookie);
  }

  @Get(['handoff/:token', 'sandbox/handoff/:token'])
  async handoff(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const environment = environmentOfPath(request.url);
    const session = await this.flow.enterHandoff(environment, token);
    this.startSession(reply, environment, session.cookie);
  }

  @Get(['recipient', 'sandbox/recipient'])
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const environment = environmentOfPath(request.url);
    const { session, loaded } = await this.flow.current(environment, this.cookie(request));
    const payout = loaded.payout;
    const query = request.query as Record<string, string | undefined>;
    const frame = { environment };

    if (payout.status !== 'awaiting_choice') {
      return this.html(reply, payout, 200, this.statusView(environment, loaded));
    }
    if (payout.delivery === 'link' && !session.verified) {
      const justSent = query.sent === '1';
      // A code sent earlier (a reload, or back through the link) is asked for, not sent again.
      const outstanding =
        !justSent &&
        payout.currentLink !== null &&
        (await this.codes.hasOutstandingCode({
          payoutId: payout.payoutId,
          linkId: payout.currentLink.linkId,
          now: this.flow.now(environment),
        }));
      return this.verifyView(reply, environment, loaded, session, 200, {
        codeSent: justSent || outstanding,
        message: justSent
          ? 'We sent a code. It may take a minute to arrive.'
          : outstanding
            ? 'We already sent you a code. Enter it below, or ask for a new one.'
            : null,
      });
    }
    const details = query.change === '1' ? null : await this.vault.load(payout.payoutId);
    if (details) {
      return this.html(
        reply,
        payout,
        200,
        confirmPage(
          { ...frame, title: 'Confirm your payout' },
          {
            payout: summary(loaded),
            methodLabel: METHOD_LABELS[details.method],
            details: describeReceivingDetails(details),
            csrfToken: session.csrfToken,
            actions: { confirm: this.actions(environment).confirm, change: this.actions(environment).page },
          },
        ),
      );
    }
    return this.chooseView(reply, environment, loaded, session, null, {}, {}, 200);
  }

  @Post(['recipient/send-code', 'sandbox/recipient/send-code'])
  async sendCode(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const environment = environmentOfPath(request.url);
    const { session, loaded } = await this.flow.current(environment, this.cookie(request));
    this.checkCsrf(session, request);
    const payout = loaded.payout;
    if (payout.delivery !== 'link' || !payout.currentLink || session.verified) {
      return this.seeOther(reply, this.actions(environment).page);
    }
    const issued = await this.codes.issue({
      payoutId: payout.payoutId,
      linkId: payout.currentLink.linkId,
      now: this.flow.now(environment),
    });
    if (!issued.ok) {
      reply.header('retry-after', String(issued.retryAfterSeconds));
      return this.verifyView(reply, environment, loaded, session, 429, {
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
    return this.seeOther(reply, `${this.actions(environment).page}?sent=1`);
  }

  @Post(['recipient/verify', 'sandbox/recipient/verify'])
  async verify(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const environment = environmentOfPath(request.url);
    const { session, loaded } = await this.flow.current(environment, this.cookie(request));
    const form = this.checkCsrf(session, request);
    const payout = loaded.payout;
    if (payout.delivery !== 'link' || !payout.currentLink || session.verified) {
      return this.seeOther(reply, this.actions(environment).page);
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
      return this.seeOther(reply, this.actions(environment).page);
    }
    const refusal = codeRefusal(checked);
    if (refusal.retryAfterSeconds) reply.header('retry-after', String(refusal.retryAfterSeconds));
    return this.verifyView(reply, environment, loaded, session, refusal.status, {
      codeSent: true,
      error: refusal.message,
    });
  }

  @Post(['recipient/details', 'sandbox/recipient/details'])
  async details(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const environment = environmentOfPath(request.url);
    const { session, loaded } = await this.flow.current(environment, this.cookie(request));
    const form = this.checkCsrf(session, request);
    const payout = loaded.payout;
    if (payout.status !== 'awaiting_choice' || (payout.delivery === 'link' && !session.verified)) {
      return this.seeOther(reply, this.actions(environment).page);
    }
    const method = (RECEIVING_METHODS as readonly string[]).includes(form.method ?? '')
      ? (form.method as ReceivingMethod)
      : null;
    if (!method) {
      return this.chooseView(reply, environment, loaded, session, null, form, {
        method: 'Choose how you would like to receive the payout.',
      });
    }
    const parsed = parseReceivingDetails(method, form, this.flow.now(environment));
    if (!parsed.ok) return this.chooseView(reply, environment, loaded, session, method, form, parsed.errors);
    // False when a confirm sealed the details meanwhile: the page then shows the payout as it is.
    await this.vault.save(payout.payoutId, parsed.details);
    return this.seeOther(reply, this.actions(environment).page);
  }

  @Post(['recipient/confirm', 'sandbox/recipient/confirm'])
  async confirm(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const environment = environmentOfPath(request.url);
    const { session, loaded } = await this.flow.current(environment, this.cookie(request));
    this.checkCsrf(session, request);
    const payout = loaded.payout;
    if (payout.status !== 'awaiting_choice' || (payout.delivery === 'link' && !session.verified)) {
      return this.seeOther(reply, this.actions(environment).page);
    }
    const chosen = await this.vault.loadForConfirm(payout.payoutId);
    if (!chosen) return this.seeOther(reply, this.actions(environment).page);
    try {
      // The details are sealed in the confirm's own transaction: the payout goes exactly where the
      // recipient confirmed, even if another tab saves new details at the same moment.
      await this.commands.execute(
        new ConfirmPayoutCommand(
          payout.payoutId,
          chosen.details.method,
          this.vault.sealRow(payout.payoutId, chosen.saved),
        ),
      );
    } catch (error) {
      // Expired or cancelled meanwhile (the status page says so), or the details changed since
      // they were loaded (the page shows the new ones, to be confirmed again).
      if (!(error instanceof DomainError) && !(error instanceof ReceivingDetailsChangedError)) throw error;
      return this.seeOther(reply, this.actions(environment).page);
    }
    if (payout.delivery === 'redirect' && payout.returnUrl) {
      // Back to the merchant with the payout id and no claim of outcome (spec 1, rule 2).
      return this.seeOther(reply, withPayoutId(payout.returnUrl, payout.payoutId));
    }
    return this.seeOther(reply, this.actions(environment).page);
  }

  private verifyView(
    reply: FastifyReply,
    environment: Environment,
    loaded: LoadedPayout,
    session: PageSession,
    status: number,
    view: { codeSent: boolean; message?: string | null; error?: string | null },
  ) {
    const { payout } = loaded;
    return this.html(
      reply,
      payout,
      status,
      verifyEmailPage(
        { environment, title: 'Confirm your e-mail' },
        {
          ...view,
          payout: summary(loaded),
          maskedEmail: maskEmail(payout.customerEmail ?? ''),
          csrfToken: session.csrfToken,
          actions: this.actions(environment),
        },
      ),
    );
  }

  private chooseView(
    reply: FastifyReply,
    environment: Environment,
    loaded: LoadedPayout,
    session: PageSession,
    method: ReceivingMethod | null,
    form: Form,
    errors: Record<string, string>,
    status = 422,
  ) {
    // Card and account numbers are never echoed back into the page.
    const { card_number: _card, account_number: _account, csrf_token: _csrf, ...values } = form;
    return this.html(
      reply,
      loaded.payout,
      Object.keys(errors).length > 0 ? status : 200,
      chooseMethodPage(
        { environment, title: 'How would you like to be paid?' },
        {
          payout: summary(loaded),
          csrfToken: session.csrfToken,
          action: this.actions(environment).details,
          method,
          values: values as Record<string, string>,
          errors,
          sandbox: environment === 'sandbox',
        },
      ),
    );
  }

  private statusView(environment: Environment, loaded: LoadedPayout): string {
    const { payout } = loaded;
    return statusPage(
      { environment, title: 'Your payout' },
      {
        payout: {
          ...summary(loaded),
          status: payout.status,
          safeReason: 'safeReason' in payout ? (payout.safeReason ?? null) : null,
          receiptReference: 'receiptReference' in payout ? (payout.receiptReference ?? null) : null,
        },
        methodLabel:
          'selectedMethod' in payout && payout.selectedMethod
            ? (METHOD_LABELS[payout.selectedMethod as ReceivingMethod] ?? null)
            : null,
        returnUrl:
          payout.delivery === 'redirect' && payout.returnUrl
            ? withPayoutId(payout.returnUrl, payout.payoutId)
            : null,
      },
    );
  }

  private startSession(reply: FastifyReply, environment: Environment, cookie: string) {
    setPageHeaders(reply, { https: this.flow.secureCookies });
    reply.header(
      'set-cookie',
      sessionCookie(cookie, { path: this.actions(environment).page, https: this.flow.secureCookies }),
    );
    return this.seeOther(reply, this.actions(environment).page);
  }

  private html(reply: FastifyReply, payout: Payout, status: number, body: string) {
    setPageHeaders(reply, {
      https: this.flow.secureCookies,
      formOrigin: payout.delivery === 'redirect' && payout.returnUrl ? originOf(payout.returnUrl) : null,
    });
    void reply.status(status).type('text/html; charset=utf-8').send(body);
  }

  private seeOther(reply: FastifyReply, location: string) {
    void reply.status(303).header('location', location).send();
  }

  private cookie(request: FastifyRequest): string | undefined {
    return readCookie(request.headers.cookie, SESSION_COOKIE);
  }

  private checkCsrf(session: PageSession, request: FastifyRequest): Form {
    const form = (request.body ?? {}) as Form;
    if (typeof form !== 'object' || !this.flow.checkCsrf(session, form.csrf_token)) throw formExpired();
    return form;
  }

  private actions(environment: Environment) {
    const base = `${environment === 'sandbox' ? '/sandbox' : ''}/recipient`;
    return {
      page: base,
      sendCode: `${base}/send-code`,
      verify: `${base}/verify`,
      details: `${base}/details`,
      confirm: `${base}/confirm`,
    };
  }
}

function summary({ payout, merchantName }: LoadedPayout): PayoutSummary {
  return { merchantName, amount: payout.amount, currency: payout.currency, description: payout.description };
}

function withPayoutId(returnUrl: string, payoutId: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('payout_id', payoutId);
  return url.toString();
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
