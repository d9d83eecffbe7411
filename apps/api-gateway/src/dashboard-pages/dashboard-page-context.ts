import { Inject, Injectable } from '@nestjs/common';
import type { AccountsRepository } from '@payouts/accounts';
import type { Clock } from '@payouts/clock';
import type { AppConfig } from '@payouts/config';
import { APP_CONFIG } from '@payouts/platform';
import { DASHBOARD_PATHS, PageFrame, pageCookieOptions } from '@payouts/web';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNTS } from '../gateway.tokens';
import { DASHBOARD_CLOCK } from './dashboard-clock';
import { DashboardSession, DashboardSessions } from './dashboard-sessions';

export const SESSION_COOKIE = 'dashboard_session';

/** A provider that adds routes to the dashboard's page scope (listed in DashboardPagesModule). */
export interface DashboardRouteSet {
  register(scope: FastifyInstance): void;
}

export interface SignedInPage {
  session: DashboardSession;
  frame: PageFrame;
}

/** What every dashboard route needs: the clock, the session of the request and the page frame. */
@Injectable()
export class DashboardPageContext {
  readonly cookieOptions: CookieSerializeOptions;

  constructor(
    @Inject(ACCOUNTS) private readonly accounts: AccountsRepository,
    readonly sessions: DashboardSessions,
    @Inject(DASHBOARD_CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cookieOptions = pageCookieOptions(config.publicBaseUrl.startsWith('https://'));
  }

  now(): Date {
    return this.clock.now();
  }

  /** The request's live session (its idle deadline moved on), or null. */
  session(request: FastifyRequest): Promise<DashboardSession | null> {
    return this.sessions.find(request.cookies[SESSION_COOKIE], this.now());
  }

  /** The frame of a signed-in page, with a fresh CSRF token for its forms. */
  async frame(session: DashboardSession, reply: FastifyReply): Promise<PageFrame> {
    const profile = await this.accounts.dashboardProfile(session.accountId);
    return {
      accountName: profile?.name ?? session.accountId,
      timeZone: profile?.timeZone ?? 'UTC',
      environment: session.environment,
      csrfToken: reply.generateCsrf(),
    };
  }

  /**
   * For a page that needs a signed-in user: its session and frame, or null once the browser has
   * been sent to sign in (the route then returns the reply).
   */
  async signedIn(request: FastifyRequest, reply: FastifyReply): Promise<SignedInPage | null> {
    const session = await this.session(request);
    if (!session) {
      void reply.redirect(DASHBOARD_PATHS.home, 303);
      return null;
    }
    return { session, frame: await this.frame(session, reply) };
  }
}
