import { Controller, Get, Inject, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
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
import type { FastifyReply, FastifyRequest } from 'fastify';
import { environmentOfRoute } from '../auth/request-environment';
import { RecipientPageFilter } from './recipient-page.filter';
import { recipientActions, RecipientPageReplies, summary, withPayoutId } from './recipient-page-replies';
import { STYLESHEET, STYLESHEET_PATH } from './views/layout';
import { confirmPage, METHOD_LABELS } from './views/pages';

/**
 * The recipient's hosted pages at `payout_url` (docs/design.md#delivery-links-and-expiry): plain server-rendered forms. The token in
 * a claim link or handoff URL is exchanged at once for an HttpOnly session cookie and the browser
 * is sent on to `/recipient`, so the token leaves the address bar and never travels as a referrer.
 * Every POST carries the session's CSRF token. The e-mail code step: email-verification.controller.ts.
 */
@ApiExcludeController()
@UseFilters(RecipientPageFilter)
@Controller()
export class RecipientPagesController {
  constructor(
    private readonly flow: RecipientFlow,
    private readonly replies: RecipientPageReplies,
    private readonly commands: CommandBus,
    private readonly codes: VerificationCodeStore,
    @Inject(RECEIVING_DETAILS_VAULT) private readonly vault: ReceivingDetailsVault,
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
    const environment = environmentOfRoute(request);
    const entered = await this.flow.enterLink(environment, token);
    if (entered.kind === 'status') {
      // Gone for good (expired or cancelled): 410; otherwise it simply shows where the payout stands.
      const { payout } = entered.loaded;
      const gone = ['expired', 'cancelled'].includes(payout.status) ? 410 : 200;
      return this.replies.html(reply, payout, gone, this.replies.statusView(environment, entered.loaded));
    }
    this.replies.startSession(reply, environment, entered.cookie);
  }

  @Get(['handoff/:token', 'sandbox/handoff/:token'])
  async handoff(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const environment = environmentOfRoute(request);
    const session = await this.flow.enterHandoff(environment, token);
    this.replies.startSession(reply, environment, session.cookie);
  }

  @Get(['recipient', 'sandbox/recipient'])
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const environment = environmentOfRoute(request);
    const { session, loaded } = await this.flow.current(environment, this.replies.cookie(request));
    const payout = loaded.payout;
    const query = request.query as Record<string, string | undefined>;
    const frame = { environment };

    if (payout.status !== 'awaiting_choice') {
      return this.replies.html(reply, payout, 200, this.replies.statusView(environment, loaded));
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
      return this.replies.verifyView(reply, environment, loaded, session, 200, {
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
      return this.replies.html(
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
            actions: {
              confirm: recipientActions(environment).confirm,
              change: recipientActions(environment).page,
            },
          },
        ),
      );
    }
    return this.replies.chooseView(reply, environment, loaded, session, null, {}, {}, 200);
  }

  @Post(['recipient/details', 'sandbox/recipient/details'])
  async details(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const environment = environmentOfRoute(request);
    const { session, loaded } = await this.flow.current(environment, this.replies.cookie(request));
    const form = this.replies.checkCsrf(session, request);
    const payout = loaded.payout;
    if (payout.status !== 'awaiting_choice' || (payout.delivery === 'link' && !session.verified)) {
      return this.replies.seeOther(reply, recipientActions(environment).page);
    }
    const method = (RECEIVING_METHODS as readonly string[]).includes(form.method ?? '')
      ? (form.method as ReceivingMethod)
      : null;
    if (!method) {
      return this.replies.chooseView(reply, environment, loaded, session, null, form, {
        method: 'Choose how you would like to receive the payout.',
      });
    }
    const parsed = parseReceivingDetails(method, form, this.flow.now(environment));
    if (!parsed.ok)
      return this.replies.chooseView(reply, environment, loaded, session, method, form, parsed.errors);
    // False when a confirm sealed the details meanwhile: the page then shows the payout as it is.
    await this.vault.save(payout.payoutId, parsed.details);
    return this.replies.seeOther(reply, recipientActions(environment).page);
  }

  @Post(['recipient/confirm', 'sandbox/recipient/confirm'])
  async confirm(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const environment = environmentOfRoute(request);
    const { session, loaded } = await this.flow.current(environment, this.replies.cookie(request));
    this.replies.checkCsrf(session, request);
    const payout = loaded.payout;
    if (payout.status !== 'awaiting_choice' || (payout.delivery === 'link' && !session.verified)) {
      return this.replies.seeOther(reply, recipientActions(environment).page);
    }
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
