import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { ClaimsModule, MERCHANT_NAMES, RecipientFlow } from '@payouts/claims';
import { MailModule } from '@payouts/mail';
import { PayoutsModule } from '@payouts/payouts';
import { answerNotFoundOnPages } from '@payouts/platform';
import type { FastifyInstance } from 'fastify';
import { GatewayAccountsModule } from '../accounts.module';
import { ACCOUNTS } from '../gateway.tokens';
import { DevMailboxController } from './dev-mailbox.controller';
import { EmailVerificationController } from './email-verification.controller';
import { registerFormParser } from './form-body';
import { recipientPageNotFound } from './recipient-page.filter';
import { RecipientPageReplies } from './recipient-page-replies';
import { RecipientPagesController } from './recipient-pages.controller';

/** The recipient's hosted pages (claim link, redirect handoff, status) and the development mailbox. */
@Module({
  imports: [CqrsModule, PayoutsModule, ClaimsModule, MailModule, GatewayAccountsModule],
  controllers: [RecipientPagesController, EmailVerificationController, DevMailboxController],
  // The flow names the paying merchant through the gateway's one AccountsRepository.
  providers: [{ provide: MERCHANT_NAMES, useExisting: ACCOUNTS }, RecipientFlow, RecipientPageReplies],
})
export class RecipientPagesModule implements OnModuleInit {
  constructor(private readonly http: HttpAdapterHost) {}

  onModuleInit(): void {
    // Before the app listens: the pages' form posts need their own body parser, and a path under
    // the pages that is no page is their "link not valid" page.
    const fastify = this.http.httpAdapter.getInstance<FastifyInstance>();
    registerFormParser(fastify);
    answerNotFoundOnPages(fastify, recipientPageNotFound);
  }
}
