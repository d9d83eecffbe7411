import { Inject, Injectable } from '@nestjs/common';
import type { Clock } from '@payouts/clock';
import type { SqlClient } from '@payouts/database';
import { ApiError } from '@payouts/http';
import { PayoutQueries } from '@payouts/payouts';
import { CLOCK, SQL_CLIENT } from '@payouts/platform';
import { dailyFlows, FundsQueries } from '@payouts/settlements';
import { DASHBOARD_PATHS, queryInteger, sendPage, STYLESHEET } from '@payouts/web';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseTransactionsQuery } from '../funds/balance-transactions/balance-transactions.route';
import { DashboardPageContext, DashboardRouteSet } from './dashboard-page-context';
import type { SignedInPage } from './dashboard-page-context';
import { HomePage, PayoutBalanceBody } from './views/home-page';
import { SignInPage } from './views/sign-in-page';

/** Rows of the pending proceeds on one page of Home. */
export const PENDING_PAGE_SIZE = 10;

/** The chart's ledger until another currency is chosen: the payout balance's. */
const CHART_DEFAULT_CURRENCY = 'USD';

/**
 * `GET /dashboard` (Home, or sign-in for someone not signed in) and the stylesheet. Home reads
 * what the API reads: Get Payout Balance (PayoutQueries.balance), the balance transactions still
 * pending (FundsQueries) and the chart's daily flows of one ledger (dailyFlows), in the session's
 * environment and on that environment's clock.
 */
@Injectable()
export class HomeRoutes implements DashboardRouteSet {
  constructor(
    private readonly context: DashboardPageContext,
    private readonly payouts: PayoutQueries,
    private readonly funds: FundsQueries,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  register(scope: FastifyInstance): void {
    scope.get(DASHBOARD_PATHS.stylesheet, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').type('text/css; charset=utf-8').send(STYLESHEET),
    );
    scope.get(DASHBOARD_PATHS.home, async (request, reply) => {
      const session = await this.context.session(request);
      if (!session) return sendPage(reply, 200, <SignInPage csrfToken={reply.generateCsrf()} />);
      return this.home({ session, frame: await this.context.frame(session, reply) }, request, reply);
    });
  }

  private async home({ session, frame }: SignedInPage, request: FastifyRequest, reply: FastifyReply) {
    const { accountId, environment } = session;
    const query = (request.query ?? {}) as Record<string, unknown>;
    const chart = chartCurrency(query.currency);
    const [balance, pending, flows] = await Promise.all([
      this.payouts.balance(accountId, environment),
      this.funds.transactions(accountId, environment, {
        status: 'pending',
        limit: PENDING_PAGE_SIZE,
        offset: queryInteger(query.pending_offset, 0),
      }),
      chart.currency === null
        ? null
        : dailyFlows(this.db, {
            accountId,
            environment,
            currency: chart.currency,
            timeZone: frame.timeZone,
            now: this.clock.now(environment),
          }),
    ]);
    return sendPage(
      reply,
      chart.error ? 400 : 200,
      <HomePage
        frame={frame}
        balance={balance.body as PayoutBalanceBody}
        pending={pending}
        flows={flows}
        currencyValue={typeof query.currency === 'string' ? query.currency : ''}
        currencyError={chart.error}
      />,
    );
  }
}

/**
 * The chart's currency: the one asked for, read as List Balance Transactions reads `currency`
 * (the same pattern and refusal), or USD when none is asked for.
 */
function chartCurrency(value: unknown): { currency: string | null; error: string | null } {
  if (value === undefined || value === '') return { currency: CHART_DEFAULT_CURRENCY, error: null };
  try {
    const { currency } = parseTransactionsQuery({ currency: value });
    return { currency: currency ?? CHART_DEFAULT_CURRENCY, error: null };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return { currency: null, error: error.message };
    throw error;
  }
}
