import { Injectable } from '@nestjs/common';
import { ENVIRONMENTS, Environment } from '@payouts/domain';
import { DASHBOARD_PATHS, formField, RETURN_TO_FIELD } from '@payouts/web';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DashboardPageContext, DashboardRouteSet } from './dashboard-page-context';

/** Where the switch may send the browser back to: a dashboard page's path, nothing else. */
const DASHBOARD_PAGE_PATH = /^\/dashboard(\/[a-z0-9-]+)*$/;

/** `POST /dashboard/environment`: which environment the pages show, kept in the session. */
@Injectable()
export class EnvironmentRoutes implements DashboardRouteSet {
  constructor(private readonly context: DashboardPageContext) {}

  register(scope: FastifyInstance): void {
    scope.post(DASHBOARD_PATHS.environment, (request, reply) => this.switch(request, reply));
  }

  private async switch(request: FastifyRequest, reply: FastifyReply) {
    const session = await this.context.session(request);
    if (!session) return reply.redirect(DASHBOARD_PATHS.home, 303);
    const environment = formField(request.body, 'environment');
    if (!isEnvironment(environment)) {
      throw Object.assign(new Error('environment must be production or sandbox'), { statusCode: 400 });
    }
    await this.context.sessions.setEnvironment(session.sessionId, environment, this.context.now());
    const returnTo = formField(request.body, RETURN_TO_FIELD);
    const target = returnTo && DASHBOARD_PAGE_PATH.test(returnTo) ? returnTo : DASHBOARD_PATHS.home;
    return reply.redirect(target, 303);
  }
}

function isEnvironment(value: string | undefined): value is Environment {
  return (ENVIRONMENTS as readonly string[]).includes(value ?? '');
}
