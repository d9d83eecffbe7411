import { Injectable } from '@nestjs/common';
import { DASHBOARD_PATHS, sendPage, STYLESHEET } from '@payouts/web';
import type { FastifyInstance } from 'fastify';
import { DashboardPageContext, DashboardRouteSet } from './dashboard-page-context';
import { HomePage } from './views/home-page';
import { SignInPage } from './views/sign-in-page';

/** `GET /dashboard` (Home, or sign-in for someone not signed in) and the stylesheet. */
@Injectable()
export class HomeRoutes implements DashboardRouteSet {
  constructor(private readonly context: DashboardPageContext) {}

  register(scope: FastifyInstance): void {
    scope.get(DASHBOARD_PATHS.stylesheet, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').type('text/css; charset=utf-8').send(STYLESHEET),
    );
    scope.get(DASHBOARD_PATHS.home, async (request, reply) => {
      const session = await this.context.session(request);
      if (!session) return sendPage(reply, 200, <SignInPage csrfToken={reply.generateCsrf()} />);
      return sendPage(reply, 200, <HomePage frame={await this.context.frame(session, reply)} />);
    });
  }
}
