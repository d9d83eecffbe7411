import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { resolveEncryptionKeys } from '@payouts/accounts';
import { CheckoutModule } from '@payouts/checkout';
import type { AppConfig } from '@payouts/config';
import { answerNotFoundOnPages, APP_CONFIG } from '@payouts/platform';
import type { FastifyInstance } from 'fastify';
import { GatewayAccountsModule } from '../accounts.module';
import { CheckoutCsrf } from './checkout-csrf';
import { checkoutPageNotFound, servedOverHttps } from './checkout-page.filter';
import { CheckoutPagesController } from './checkout-pages.controller';

/** The hosted checkout page (its form posts use the recipient pages' form parser, form-body.ts). */
@Module({
  imports: [CqrsModule, CheckoutModule, GatewayAccountsModule],
  controllers: [CheckoutPagesController],
  providers: [
    {
      provide: CheckoutCsrf,
      useFactory: (config: AppConfig) => new CheckoutCsrf(resolveEncryptionKeys(config)),
      inject: [APP_CONFIG],
    },
  ],
})
export class CheckoutPagesModule implements OnModuleInit {
  constructor(
    private readonly http: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // Before the app listens: a path under /checkout that is no order's page is the page's 404.
    answerNotFoundOnPages(
      this.http.httpAdapter.getInstance<FastifyInstance>(),
      checkoutPageNotFound(servedOverHttps(this.config)),
    );
  }
}
