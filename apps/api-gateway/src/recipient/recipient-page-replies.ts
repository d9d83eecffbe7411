import { Injectable } from '@nestjs/common';
import { originOf } from '@payouts/accounts';
import { formExpired, LoadedPayout, RecipientFlow } from '@payouts/claims';
import type { PageSession } from '@payouts/claims';
import { Environment, Payout, ReceivingMethod } from '@payouts/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { maskEmail } from './mask-email';
import { readCookie, SESSION_COOKIE, sessionCookie, setPageHeaders } from './page-headers';
import { chooseMethodPage, METHOD_LABELS, PayoutSummary, statusPage, verifyEmailPage } from './views/pages';

export type Form = Record<string, string | undefined>;

/**
 * How the recipient's pages answer: a rendered page with the page headers, a 303 to the next
 * step, or the session cookie that starts a visit. Shared by the pages' controllers.
 */
@Injectable()
export class RecipientPageReplies {
  constructor(private readonly flow: RecipientFlow) {}

  verifyView(
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
          actions: recipientActions(environment),
        },
      ),
    );
  }

  chooseView(
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
          action: recipientActions(environment).details,
          method,
          values: values as Record<string, string>,
          errors,
          sandbox: environment === 'sandbox',
        },
      ),
    );
  }

  statusView(environment: Environment, loaded: LoadedPayout): string {
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

  startSession(reply: FastifyReply, environment: Environment, cookie: string) {
    setPageHeaders(reply, { https: this.flow.secureCookies });
    reply.header(
      'set-cookie',
      sessionCookie(cookie, { path: recipientActions(environment).page, https: this.flow.secureCookies }),
    );
    return this.seeOther(reply, recipientActions(environment).page);
  }

  html(reply: FastifyReply, payout: Payout, status: number, body: string) {
    setPageHeaders(reply, {
      https: this.flow.secureCookies,
      formOrigin: payout.delivery === 'redirect' && payout.returnUrl ? originOf(payout.returnUrl) : null,
    });
    void reply.status(status).type('text/html; charset=utf-8').send(body);
  }

  seeOther(reply: FastifyReply, location: string) {
    void reply.status(303).header('location', location).send();
  }

  cookie(request: FastifyRequest): string | undefined {
    return readCookie(request.headers.cookie, SESSION_COOKIE);
  }

  checkCsrf(session: PageSession, request: FastifyRequest): Form {
    const form = (request.body ?? {}) as Form;
    if (typeof form !== 'object' || !this.flow.checkCsrf(session, form.csrf_token)) throw formExpired();
    return form;
  }
}

/** Where each of the pages' forms posts to, under `/recipient` or `/sandbox/recipient`. */
export function recipientActions(environment: Environment) {
  const base = `${environment === 'sandbox' ? '/sandbox' : ''}/recipient`;
  return {
    page: base,
    sendCode: `${base}/send-code`,
    verify: `${base}/verify`,
    details: `${base}/details`,
    confirm: `${base}/confirm`,
  };
}

export function summary({ payout, merchantName }: LoadedPayout): PayoutSummary {
  return { merchantName, amount: payout.amount, currency: payout.currency, description: payout.description };
}

export function withPayoutId(returnUrl: string, payoutId: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('payout_id', payoutId);
  return url.toString();
}
