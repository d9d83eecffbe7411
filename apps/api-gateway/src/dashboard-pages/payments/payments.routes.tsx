import { Inject, Injectable } from '@nestjs/common';
import { OrderQueries } from '@payouts/checkout';
import type { EventStore } from '@payouts/event-store';
import { EVENT_STORE } from '@payouts/platform';
import { DASHBOARD_PATHS, queryInteger, sendPage } from '@payouts/web';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readPaymentId } from '../../checkout/reads/payments-query';
import { DashboardPageContext, DashboardRouteSet } from '../dashboard-page-context';
import { readOrderEvents } from './order-events';
import { readPaymentsRequest } from './payments-filter';
import { OrderNotFoundPage, OrderPage } from './views/order-page';
import { PaymentsPage } from './views/payments-page';

/**
 * Payments (docs/dashboard.md#payments): `GET /dashboard/payments`, the checkout orders of the
 * session's account and environment through OrderQueries (the reads of Get Payments List, History
 * and Status), and `GET /dashboard/payments/:order_id`, one order with its events from the event
 * store. Nothing here writes.
 */
@Injectable()
export class PaymentsRoutes implements DashboardRouteSet {
  constructor(
    private readonly context: DashboardPageContext,
    private readonly orders: OrderQueries,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  register(scope: FastifyInstance): void {
    scope.get(DASHBOARD_PATHS.payments, (request, reply) => this.list(request, reply));
    scope.get(`${DASHBOARD_PATHS.payments}/:order_id`, (request, reply) => this.order(request, reply));
  }

  private async list(request: FastifyRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    const { query, filter, limit, offset, refusals } = readPaymentsRequest(request.query);
    if (Object.keys(refusals).length > 0) {
      return sendPage(
        reply,
        400,
        <PaymentsPage frame={page.frame} query={query} refusals={refusals} result={null} />,
      );
    }
    const { accountId, environment } = page.session;
    const search = await this.orders.search(accountId, environment, filter, limit, offset);
    return sendPage(
      reply,
      200,
      <PaymentsPage frame={page.frame} query={query} refusals={{}} result={{ search, limit, offset }} />,
    );
  }

  private async order(request: FastifyRequest, reply: FastifyReply) {
    const page = await this.context.signedIn(request, reply);
    if (!page) return reply;
    const { order_id: raw } = request.params as { order_id: string };
    // Get Payments Status's reading of an order id: anything else names no order.
    const orderId = readPaymentId({ payment_id: raw });
    const { accountId, environment } = page.session;
    const order = orderId === null ? null : await this.orders.details(accountId, environment, orderId);
    if (!order) return sendPage(reply, 404, <OrderNotFoundPage frame={page.frame} />);
    const events = await readOrderEvents(this.store, order.view.id);
    const declinedOffset = queryInteger((request.query as Record<string, unknown>).offset, 0);
    return sendPage(
      reply,
      200,
      <OrderPage frame={page.frame} order={order} events={events} declinedOffset={declinedOffset} />,
    );
  }
}
