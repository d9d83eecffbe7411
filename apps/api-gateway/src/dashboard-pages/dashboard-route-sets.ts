import type { Type } from '@nestjs/common';
import { ApiIntegrationRoutes } from './api-integration/api-integration.routes';
import { BalanceRoutes } from './balance/balance.routes';
import type { DashboardRouteSet } from './dashboard-page-context';
import { EnvironmentRoutes } from './environment.routes';
import { HomeRoutes } from './home.routes';
import { PaymentsRoutes } from './payments/payments.routes';
import { SendPayoutsRoutes } from './send-payouts/send-payouts.routes';
import { SettingsRoutes } from './settings/settings.routes';
import { SignInRoutes } from './sign-in.routes';

/**
 * Every route set of the dashboard's pages, one per page or group of pages. DashboardPagesModule
 * provides each and registers its routes in the page scope; a new page adds its class here.
 */
export const DASHBOARD_ROUTE_SETS: readonly Type<DashboardRouteSet>[] = [
  HomeRoutes,
  SignInRoutes,
  EnvironmentRoutes,
  PaymentsRoutes,
  ApiIntegrationRoutes,
  SettingsRoutes,
  BalanceRoutes,
  SendPayoutsRoutes,
];
