import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { CheckoutModule } from '@payouts/checkout';
import type { AppConfig } from '@payouts/config';
import { answerNotFoundOnPages, APP_CONFIG } from '@payouts/platform';
import { registerHostedPageScope, removeFormParser } from '@payouts/web';
import type { FastifyInstance } from 'fastify';
import { GatewayAccountsModule } from '../accounts.module';
import { checkoutPageError, checkoutPageNotFound, servedOverHttps } from './checkout-page.filter';
import { CheckoutPageRoutes } from './checkout-pages.routes';

/** The cookie holding a checkout page's CSRF secret (HttpOnly, SameSite=Strict, that page's path only). */
export const CHECKOUT_CSRF_COOKIE = 'checkout_csrf';

/**
 * The hosted checkout page. Its routes live in one encapsulated Fastify scope of the page kit
 * (registerHostedPageScope): form bodies, cookies, the CSRF tokens of a secret in the page's own
 * cookie, helmet's headers and the page's error pages apply there only.
 */
@Module({
  imports: [CqrsModule, CheckoutModule, GatewayAccountsModule],
  providers: [CheckoutPageRoutes],
})
export class CheckoutPagesModule implements OnModuleInit {
  constructor(
    private readonly http: HttpAdapterHost,
    private readonly routes: CheckoutPageRoutes,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // Before the app listens; Fastify loads the scope when it starts. Only page scopes take form
    // posts, and a path under /checkout that is no order's page is the page's 404.
    const fastify = this.http.httpAdapter.getInstance<FastifyInstance>();
    const https = servedOverHttps(this.config);
    removeFormParser(fastify);
    answerNotFoundOnPages(fastify, checkoutPageNotFound(https));
    void fastify.register(async (scope) => {
      await registerHostedPageScope(scope, {
        https,
        csrfSecret: { cookie: CHECKOUT_CSRF_COOKIE },
        errorPage: checkoutPageError,
      });
      this.routes.register(scope);
    });
  }
}
