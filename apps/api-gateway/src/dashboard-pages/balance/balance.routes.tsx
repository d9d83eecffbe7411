import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@payouts/config';
import type { Environment } from '@payouts/domain';
import { ApiError } from '@payouts/http';
import { APP_CONFIG } from '@payouts/platform';
import { balanceTransactionsCsv, FundsQueries, settlementsCsv } from '@payouts/settlements';
import { queryInteger, sendPage } from '@payouts/web';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SETTLEMENT_ID } from '../../funds/funds-routes';
import { DashboardPageContext, DashboardRouteSet } from '../dashboard-page-context';
import {
  filterValues,
  parsePageFilter,
  parseSettlementsCsvFilter,
  parseTransactionsCsvFilter,
} from './balance-filters';
import { BalancePage } from './balance-page';
import { BALANCE_PATHS } from './balance-paths';
import { SettlementNotFoundPage, SettlementPage } from './settlement-page';

/** Rows on one page of each list. */
export const BALANCE_PAGE_SIZE = 25;

type Query = Record<string, unknown>;

/**
 * The Balance pages (docs/dashboard.md#balance): the balance transactions and settlements of the
 * session's account and environment, read through FundsQueries as List Balance Transactions,
 * List Settlements and Get Settlement read them, with the routes' own query parsers; and their
 * CSV exports (funds-csv), every row of the current filter.
 */
@Injectable()
export class BalanceRoutes implements DashboardRouteSet {
  constructor(
    private readonly context: DashboardPageContext,
    private readonly funds: FundsQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  register(scope: FastifyInstance): void {
    scope.get(BALANCE_PATHS.list, (request, reply) => this.list(request, reply));
    scope.get(BALANCE_PATHS.transactionsCsv, (request, reply) => this.transactionsCsv(request, reply));
    scope.get(BALANCE_PATHS.settlementsCsv, (request, reply) => this.settlementsCsv(request, reply));
    scope.get(BALANCE_PATHS.settlement, (request, reply) => this.settlement(request, reply));
  }

  private async list(request: FastifyRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    const { accountId, environment } = page.session;
    const query = (request.query ?? {}) as Query;
    const filter = parsePageFilter(query, BALANCE_PAGE_SIZE, queryInteger(query.offset, 0));
    const [transactions, settlements] = await Promise.all([
      filter.ok ? this.funds.transactions(accountId, environment, filter.filters) : null,
      this.funds.settlements(accountId, environment, {
        limit: BALANCE_PAGE_SIZE,
        offset: queryInteger(query.settlements_offset, 0),
      }),
    ]);
    return sendPage(
      reply,
      filter.ok ? 200 : 400,
      <BalancePage
        frame={page.frame}
        values={filterValues(query)}
        refusal={filter.ok ? null : filter}
        transactions={transactions}
        settlements={settlements}
        settlementHourUtc={this.config.settlementHourUtc}
      />,
    );
  }

  private async transactionsCsv(request: FastifyRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    const filter = parseTransactionsCsvFilter(request.query);
    if (!filter.ok) throw badRequest(filter.message);
    const { accountId, environment } = page.session;
    return sendCsv(
      reply,
      `balance-transactions-${environment}.csv`,
      balanceTransactionsCsv(this.funds, accountId, environment, filter.filters),
    );
  }

  private async settlementsCsv(request: FastifyRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    // List Settlements' own filters (status, currency), should a link carry them.
    const filter = parseSettlementsCsvFilter(request.query);
    if (!filter.ok) throw badRequest(filter.message);
    const { accountId, environment } = page.session;
    return sendCsv(
      reply,
      `settlements-${environment}.csv`,
      settlementsCsv(this.funds, accountId, environment, filter.filters),
    );
  }

  private async settlement(request: FastifyRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    const { accountId, environment } = page.session;
    const settlementId = (request.params as { settlement_id: string }).settlement_id;
    const settlement = await this.ownSettlement(accountId, environment, settlementId);
    if (!settlement) return sendPage(reply, 404, <SettlementNotFoundPage frame={page.frame} />);
    const movements = await this.funds.transactions(accountId, environment, {
      settlementId,
      limit: BALANCE_PAGE_SIZE,
      offset: queryInteger((request.query as Query | undefined)?.offset, 0),
    });
    return sendPage(
      reply,
      200,
      <SettlementPage frame={page.frame} settlement={settlement} movements={movements} />,
    );
  }

  /** Get Settlement's read: null for a malformed id and for another account's or environment's. */
  private async ownSettlement(accountId: string, environment: Environment, settlementId: string) {
    if (!SETTLEMENT_ID.test(settlementId)) return null;
    try {
      // The movements are paged separately (the page's offset), so none are read here.
      const {
        transactions: _none,
        transactions_total: _total,
        ...settlement
      } = await this.funds.settlement(accountId, environment, settlementId, 0);
      return settlement;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }
}

/** Streams CSV chunks as a download: the header row first, then a page of rows at a time. */
function sendCsv(reply: FastifyReply, filename: string, chunks: AsyncIterable<string>) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(Readable.from(chunks));
}

/** A refused query: the scope's 400 page. */
function badRequest(message: string): Error {
  return Object.assign(new Error(message), { statusCode: 400 });
}
