import { Injectable } from '@nestjs/common';
import { originOf } from '@payouts/accounts';
import { LoadedPayout, RecipientFlow } from '@payouts/claims';
import type { PageSession } from '@payouts/claims';
import { Environment, Payout, ReceivingMethod } from '@payouts/domain';
import { allowFormAnswersTo, sendPage, useSessionCsrfSecret } from '@payouts/web';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { maskEmail } from './mask-email';
import { ChooseMethodPage, METHOD_LABELS, PayoutSummary, StatusPage, VerifyEmailPage } from './views/pages';

export type Form = Record<string, string | undefined>;

/** The cookie of a recipient's page session (HttpOnly, SameSite=Lax, only to the pages' path). */
export const SESSION_COOKIE = 'payout_session';

/**
 * How the recipient's pages answer: a page rendered by the kit, a 303 to the next step, or the
 * session cookie that starts a visit. Shared by the pages' route sets.
 */
@Injectable()
export class RecipientPageReplies {
  constructor(private readonly flow: RecipientFlow) {}

  /**
   * The browser's page session and its payout (RecipientFlow.current: 401 or 410 when it has
   * ended or belongs to a replaced link), the session's CSRF secret handed to the page scope.
   */
  async session(
    request: FastifyRequest,
    environment: Environment,
  ): Promise<{ session: PageSession; loaded: LoadedPayout }> {
    const current = await this.flow.current(environment, request.cookies[SESSION_COOKIE]);
    useSessionCsrfSecret(request, current.session.csrfToken);
    return current;
  }

  verifyView(
    reply: FastifyReply,
    environment: Environment,
    loaded: LoadedPayout,
    status: number,
    view: { codeSent: boolean; message?: string | null; error?: string | null },
  ) {
    const { payout } = loaded;
    return this.page(
      reply,
      payout,
      status,
      <VerifyEmailPage
        frame={{ environment, title: 'Confirm your e-mail' }}
        view={{
          ...view,
          payout: summary(loaded),
          maskedEmail: maskEmail(payout.customerEmail ?? ''),
          csrfToken: reply.generateCsrf(),
          actions: recipientActions(environment),
        }}
      />,
    );
  }

  chooseView(
    reply: FastifyReply,
    environment: Environment,
    loaded: LoadedPayout,
    method: ReceivingMethod | null,
    form: Form,
    errors: Record<string, string>,
    status = 422,
  ) {
    // Card and account numbers are never echoed back into the page.
    const { card_number: _card, account_number: _account, csrf_token: _csrf, ...values } = form;
    return this.page(
      reply,
      loaded.payout,
      Object.keys(errors).length > 0 ? status : 200,
      <ChooseMethodPage
        frame={{ environment, title: 'How would you like to be paid?' }}
        view={{
          payout: summary(loaded),
          csrfToken: reply.generateCsrf(),
          action: recipientActions(environment).details,
          method,
          values: values as Record<string, string>,
          errors,
          sandbox: environment === 'sandbox',
        }}
      />,
    );
  }

  statusView(reply: FastifyReply, environment: Environment, loaded: LoadedPayout, status: number) {
    const { payout } = loaded;
    return this.page(
      reply,
      payout,
      status,
      <StatusPage
        frame={{ environment, title: 'Your payout' }}
        view={{
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
        }}
      />,
    );
  }

  startSession(reply: FastifyReply, environment: Environment, cookie: string) {
    void reply.setCookie(SESSION_COOKIE, cookie, {
      path: recipientActions(environment).page,
      httpOnly: true,
      sameSite: 'lax',
      secure: this.flow.secureCookies,
    });
    return this.seeOther(reply, recipientActions(environment).page);
  }

  /**
   * A page about this payout. For a redirect payout its forms may send the browser back to the
   * merchant's registered return origin (the confirm's answer does), so CSP form-action names it.
   */
  page(reply: FastifyReply, payout: Payout, status: number, page: VNode) {
    allowFormAnswersTo(
      reply,
      payout.delivery === 'redirect' && payout.returnUrl ? originOf(payout.returnUrl) : null,
    );
    return sendPage(reply, status, page);
  }

  seeOther(reply: FastifyReply, location: string) {
    return reply.redirect(location, 303);
  }
}

/** A route of the recipient's pages at both of its paths: production's and the sandbox's. */
export function inBothEnvironments(path: string): string[] {
  return [path, `/sandbox${path}`];
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
