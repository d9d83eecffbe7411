import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { ClaimsModule, MERCHANT_NAMES, RecipientFlow } from '@payouts/claims';
import { MailModule } from '@payouts/mail';
import { PayoutsModule } from '@payouts/payouts';
import { answerNotFoundOnPages } from '@payouts/platform';
import { registerHostedPageScope, removeFormParser } from '@payouts/web';
import type { FastifyInstance } from 'fastify';
import { GatewayAccountsModule } from '../accounts.module';
import { ACCOUNTS } from '../gateway.tokens';
import { DevMailboxController } from './dev-mailbox.controller';
import { EmailVerificationRoutes } from './email-verification.routes';
import { recipientErrorPage, recipientPageNotFound } from './recipient-error-page';
import { RecipientPageReplies } from './recipient-page-replies';
import { RecipientPagesRoutes } from './recipient-pages.routes';

/**
 * The recipient's hosted pages (claim link, redirect handoff, status) and the development mailbox.
 * The pages' routes live in one encapsulated Fastify scope of the page kit (registerHostedPageScope):
 * form bodies, cookies, the CSRF tokens of the page session's secret, helmet's headers and the
 * pages' error page apply there only.
 */
@Module({
  imports: [CqrsModule, PayoutsModule, ClaimsModule, MailModule, GatewayAccountsModule],
  controllers: [DevMailboxController],
  // The flow names the paying merchant through the gateway's one AccountsRepository.
  providers: [
    { provide: MERCHANT_NAMES, useExisting: ACCOUNTS },
    RecipientFlow,
    RecipientPageReplies,
    RecipientPagesRoutes,
    EmailVerificationRoutes,
  ],
})
export class RecipientPagesModule implements OnModuleInit {
  constructor(
    private readonly http: HttpAdapterHost,
    private readonly flow: RecipientFlow,
    private readonly pages: RecipientPagesRoutes,
    private readonly emailVerification: EmailVerificationRoutes,
  ) {}

  onModuleInit(): void {
    // Before the app listens; Fastify loads the scope when it starts. Only page scopes take form
    // posts (the API answers one with 415), and a path under the pages that is no page is their
    // "link not valid" page.
    const fastify = this.http.httpAdapter.getInstance<FastifyInstance>();
    const https = this.flow.secureCookies;
    removeFormParser(fastify);
    answerNotFoundOnPages(fastify, recipientPageNotFound(https));
    void fastify.register(async (scope) => {
      await registerHostedPageScope(scope, { https, csrfSecret: 'session', errorPage: recipientErrorPage });
      this.pages.register(scope);
      this.emailVerification.register(scope);
    });
  }
}
