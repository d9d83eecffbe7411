import type { Type } from '@nestjs/common';
import type { DashboardRouteSet } from './dashboard-page-context';
import { EnvironmentRoutes } from './environment.routes';
import { HomeRoutes } from './home.routes';
import { SignInRoutes } from './sign-in.routes';

/**
 * Every route set of the dashboard's pages, one per page or group of pages. DashboardPagesModule
 * provides each and registers its routes in the page scope; a new page adds its class here.
 */
export const DASHBOARD_ROUTE_SETS: readonly Type<DashboardRouteSet>[] = [
  HomeRoutes,
  SignInRoutes,
  EnvironmentRoutes,
];
