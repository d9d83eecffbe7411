import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { CheckoutModule } from '@payouts/checkout';
import { systemClock } from '@payouts/clock';
import { IdempotencyModule } from '@payouts/idempotency';
import { PayoutsModule } from '@payouts/payouts';
import { SettlementsModule } from '@payouts/settlements';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import { APP_CONFIG, SQL_CLIENT } from '@payouts/platform';
import { registerPageScope } from '@payouts/web';
import type { FastifyInstance } from 'fastify';
import { GatewayAccountsModule } from '../accounts.module';
import { DASHBOARD_CLOCK } from './dashboard-clock';
import { DashboardPageContext } from './dashboard-page-context';
import { DashboardSessions } from './dashboard-sessions';
import { DASHBOARD_ROUTE_SETS } from './dashboard-route-sets';
import { SignInLockout } from './sign-in-lockout';
import { renderErrorPage } from './views/error-page';

/**
 * The merchant dashboard's HTML pages (docs/dashboard.md). Their routes live in one encapsulated
 * Fastify scope (registerPageScope): cookies, form bodies, the CSRF check, helmet's headers and
 * HTML error pages apply there only, and Nest's OpenAPI document never sees them.
 */
@Module({
  imports: [GatewayAccountsModule, PayoutsModule, CheckoutModule, SettlementsModule, IdempotencyModule],
  providers: [
    { provide: DASHBOARD_CLOCK, useValue: systemClock },
    {
      provide: DashboardSessions,
      useFactory: (db: SqlClient) => new DashboardSessions(db),
      inject: [SQL_CLIENT],
    },
    { provide: SignInLockout, useFactory: (db: SqlClient) => new SignInLockout(db), inject: [SQL_CLIENT] },
    DashboardPageContext,
    ...DASHBOARD_ROUTE_SETS,
  ],
})
export class DashboardPagesModule implements OnModuleInit {
  constructor(
    private readonly http: HttpAdapterHost,
    private readonly moduleRef: ModuleRef,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // Before the app listens; Fastify loads the scope when it starts.
    const fastify = this.http.httpAdapter.getInstance<FastifyInstance>();
    const https = this.config.publicBaseUrl.startsWith('https://');
    void fastify.register(async (scope) => {
      await registerPageScope(scope, { https, errorPage: renderErrorPage });
      for (const routeSet of DASHBOARD_ROUTE_SETS) this.moduleRef.get(routeSet).register(scope);
    });
  }
}
