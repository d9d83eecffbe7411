import { Inject, Injectable } from '@nestjs/common';
import type { AccountsRepository } from '@payouts/accounts';
import { CSRF_COOKIE, DASHBOARD_PATHS, formField, sendPage } from '@payouts/web';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNTS } from '../gateway.tokens';
import { DashboardPageContext, DashboardRouteSet, SESSION_COOKIE } from './dashboard-page-context';
import { SignInLockout } from './sign-in-lockout';
import { ADMIN_TOKEN_FIELD, SignInPage } from './views/sign-in-page';

/**
 * `POST /dashboard/sign-in` with the admin token, checked by AccountsRepository.authenticateAdmin
 * as the JSON API's AdminGuard does, behind the per-address lockout; `POST /dashboard/sign-out`.
 * (The CSRF token of both forms is checked by the page scope before these run.)
 */
@Injectable()
export class SignInRoutes implements DashboardRouteSet {
  constructor(
    private readonly context: DashboardPageContext,
    private readonly lockout: SignInLockout,
    @Inject(ACCOUNTS) private readonly accounts: AccountsRepository,
  ) {}

  register(scope: FastifyInstance): void {
    scope.post(DASHBOARD_PATHS.signIn, (request, reply) => this.signIn(request, reply));
    scope.post(DASHBOARD_PATHS.signOut, (request, reply) => this.signOut(request, reply));
  }

  private async signIn(request: FastifyRequest, reply: FastifyReply) {
    const now = this.context.now();
    const address = request.ip;
    const token = formField(request.body, ADMIN_TOKEN_FIELD)?.trim() ?? '';
    // Refused while locked whatever the token, so a lock cannot be used to test guesses; an
    // empty token is no guess and is not counted.
    if (token === '') {
      const locked = await this.lockout.lockedUntil(address, now);
      if (locked) return this.lockedOut(reply, locked, now);
      const page = <SignInPage csrfToken={reply.generateCsrf()} error="Enter your admin token." />;
      return sendPage(reply, 400, page);
    }
    const reservation = await this.lockout.reserve(address, now);
    if (reservation.kind === 'locked') return this.lockedOut(reply, reservation.lockedUntil, now);
    const admin = await this.accounts.authenticateAdmin(token);
    if (!admin) {
      if (reservation.locks) return this.lockedOut(reply, reservation.locks, now);
      const page = <SignInPage csrfToken={reply.generateCsrf()} error="That admin token is not valid." />;
      return sendPage(reply, 401, page);
    }
    await this.lockout.release(address, now, reservation);
    const { cookie } = await this.context.sessions.create(admin.accountId, now);
    // A new CSRF secret comes with the session: a token rendered before sign-in is spent.
    void reply.clearCookie(CSRF_COOKIE, this.context.cookieOptions);
    void reply.setCookie(SESSION_COOKIE, cookie, this.context.cookieOptions);
    return reply.redirect(DASHBOARD_PATHS.home, 303);
  }

  private async signOut(request: FastifyRequest, reply: FastifyReply) {
    await this.context.sessions.end(request.cookies[SESSION_COOKIE]);
    void reply.clearCookie(SESSION_COOKIE, this.context.cookieOptions);
    void reply.clearCookie(CSRF_COOKIE, this.context.cookieOptions);
    return reply.redirect(DASHBOARD_PATHS.home, 303);
  }

  private lockedOut(reply: FastifyReply, until: Date, now: Date) {
    void reply.header(
      'retry-after',
      String(Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000))),
    );
    return sendPage(reply, 429, <SignInPage csrfToken="" lockedUntil={until} />);
  }
}
