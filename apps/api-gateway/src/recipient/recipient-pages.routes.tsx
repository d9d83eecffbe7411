import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  RECEIVING_DETAILS_VAULT,
  ReceivingDetailsChangedError,
  RecipientFlow,
  VerificationCodeStore,
} from '@payouts/claims';
import type { ReceivingDetailsVault } from '@payouts/claims';
import {
  describeReceivingDetails,
  DomainError,
  parseReceivingDetails,
  RECEIVING_METHODS,
  ReceivingMethod,
} from '@payouts/domain';
import { ConfirmPayoutCommand } from '@payouts/payouts';
import { formFields, formTokenIsValid } from '@payouts/web';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { environmentOfRoute } from '../auth/request-environment';
import {
  Form,
  inBothEnvironments,
  recipientActions,
  RecipientPageReplies,
  summary,
  withPayoutId,
} from './recipient-page-replies';
import { STYLESHEET, STYLESHEET_PATH } from './views/layout';
import { ConfirmPage, METHOD_LABELS } from './views/pages';

/**
 * The recipient's hosted pages at `payout_url` (docs/design.md#delivery-links-and-expiry): plain
 * server-rendered forms, in the recipient page scope (RecipientPagesModule). The token in a claim
 * link or handoff URL is exchanged at once for an HttpOnly session cookie and the browser is sent
 * on to `/recipient`, so the token leaves the address bar and never travels as a referrer. Every
 * POST carries a CSRF token of the session's secret, checked once the session is known. The
 * e-mail code step: email-verification.routes.ts.
 */
@Injectable()
export class RecipientPagesRoutes {
  constructor(
    private readonly flow: RecipientFlow,
    private readonly replies: RecipientPageReplies,
    private readonly commands: CommandBus,
    private readonly codes: VerificationCodeStore,
    @Inject(RECEIVING_DETAILS_VAULT) private readonly vault: ReceivingDetailsVault,
  ) {}

  register(scope: FastifyInstance): void {
    scope.get(STYLESHEET_PATH, (_request, reply) => this.stylesheet(reply));
    for (const path of inBothEnvironments('/claim/:token')) {
      scope.get<{ Params: { token: string } }>(path, (request, reply) => this.claim(request, reply));
    }
    for (const path of inBothEnvironments('/handoff/:token')) {
      scope.get<{ Params: { token: string } }>(path, (request, reply) => this.handoff(request, reply));
    }
    for (const path of inBothEnvironments('/recipient')) {
      scope.get(path, (request, reply) => this.page(request, reply));
    }
    for (const path of inBothEnvironments('/recipient/details')) {
      scope.post(path, (request, reply) => this.details(request, reply));
    }
    for (const path of inBothEnvironments('/recipient/confirm')) {
      scope.post(path, (request, reply) => this.confirm(request, reply));
    }
  }

  private stylesheet(reply: FastifyReply) {
    return reply
      .header('cache-control', 'public, max-age=3600')
      .type('text/css; charset=utf-8')
      .send(STYLESHEET);
  }

  private async claim(request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) {
    const environment = environmentOfRoute(request);
    const entered = await this.flow.enterLink(environment, request.params.token);
    if (entered.kind === 'status') {
      // Gone for good (expired or cancelled): 410; otherwise it simply shows where the payout stands.
      const gone = ['expired', 'cancelled'].includes(entered.loaded.payout.status) ? 410 : 200;
      return this.replies.statusView(reply, environment, entered.loaded, gone);
    }
    return this.replies.startSession(reply, environment, entered.cookie);
  }

  private async handoff(request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) {
    const environment = environmentOfRoute(request);
    const session = await this.flow.enterHandoff(environment, request.params.token);
    return this.replies.startSession(reply, environment, session.cookie);
  }

  private async page(request: FastifyRequest, reply: FastifyReply) {
    const environment = environmentOfRoute(request);
    const { session, loaded } = await this.replies.session(request, environment);
    const payout = loaded.payout;
    const query = request.query as Record<string, string | undefined>;

    if (payout.status !== 'awaiting_choice') {
      return this.replies.statusView(reply, environment, loaded, 200);
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
      return this.replies.verifyView(reply, environment, loaded, 200, {
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
      const page = (
        <ConfirmPage
          frame={{ environment, title: 'Confirm your payout' }}
          view={{
            payout: summary(loaded),
            methodLabel: METHOD_LABELS[details.method],
            details: describeReceivingDetails(details),
            csrfToken: reply.generateCsrf(),
            actions: {
              confirm: recipientActions(environment).confirm,
              change: recipientActions(environment).page,
            },
          }}
        />
      );
      return this.replies.page(reply, payout, 200, page);
    }
    return this.replies.chooseView(reply, environment, loaded, null, {}, {}, 200);
  }

  /**
   * A post of the choice (details, confirm): its session and payout, the form's token checked;
   * null once answered (the 403 page of a form from elsewhere, or, when the payout takes no choice
   * now, a 303 back to the page, which shows where it stands).
   */
  private async choiceStep(request: FastifyRequest, reply: FastifyReply) {
    const environment = environmentOfRoute(request);
    const { session, loaded } = await this.replies.session(request, environment);
    if (!formTokenIsValid(request, reply)) return null;
    const { payout } = loaded;
    if (payout.status !== 'awaiting_choice' || (payout.delivery === 'link' && !session.verified)) {
      void this.replies.seeOther(reply, recipientActions(environment).page);
      return null;
    }
    return { environment, loaded, payout };
  }

  private async details(request: FastifyRequest, reply: FastifyReply) {
    const step = await this.choiceStep(request, reply);
    if (!step) return reply;
    const { environment, loaded, payout } = step;
    const form: Form = formFields(request.body);
    const method = (RECEIVING_METHODS as readonly string[]).includes(form.method ?? '')
      ? (form.method as ReceivingMethod)
      : null;
    if (!method) {
      return this.replies.chooseView(reply, environment, loaded, null, form, {
        method: 'Choose how you would like to receive the payout.',
      });
    }
    const parsed = parseReceivingDetails(method, form, this.flow.now(environment));
    if (!parsed.ok) return this.replies.chooseView(reply, environment, loaded, method, form, parsed.errors);
    // False when a confirm sealed the details meanwhile: the page then shows the payout as it is.
    await this.vault.save(payout.payoutId, parsed.details);
    return this.replies.seeOther(reply, recipientActions(environment).page);
  }

  private async confirm(request: FastifyRequest, reply: FastifyReply) {
    const step = await this.choiceStep(request, reply);
    if (!step) return reply;
    const { environment, payout } = step;
    const chosen = await this.vault.loadForConfirm(payout.payoutId);
    if (!chosen) return this.replies.seeOther(reply, recipientActions(environment).page);
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
      return this.replies.seeOther(reply, recipientActions(environment).page);
    }
    if (payout.delivery === 'redirect' && payout.returnUrl) {
      // Back to the merchant with the payout id and no claim of outcome: only Get Payout or the webhook tells it.
      return this.replies.seeOther(reply, withPayoutId(payout.returnUrl, payout.payoutId));
    }
    return this.replies.seeOther(reply, recipientActions(environment).page);
  }
}
