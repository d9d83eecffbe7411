import { Body, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { HistoryTooLargeError, OrderQueries } from '@payouts/checkout';
import { ApiError } from '@payouts/http';
import { ApiErrors } from '../../openapi/decorators';
import {
  PaymentsHistoryRequest,
  PaymentsHistoryResponse,
  PaymentsListResponse,
  PaymentStatusResponse,
} from '../checkout.schemas';
import { CheckoutCaller } from '../checkout-principal';
import type { CheckoutPrincipal } from '../checkout-principal';
import { bothEnvironments, CheckoutRoutes } from '../checkout-routes';
import { readHistoryBody, readPaymentId, readPaymentsQuery } from './payments-query';

/**
 * Get Payments List, History and Status (docs/design.md#queries), scoped to the key's account and
 * environment.
 */
@CheckoutRoutes()
export class CheckoutReadsRoute {
  constructor(private readonly orders: OrderQueries) {}

  @Get(bothEnvironments('payments'))
  @ApiOperation({ summary: 'Get Payments List', description: 'Newest first (created_at, then id).' })
  @ApiQuery({ name: 'offset', required: false, schema: { type: 'integer', minimum: 0, default: 0 } })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: 'Page size; above 100 is capped at 100',
    schema: { type: 'integer', minimum: 1, default: 10 },
  })
  @ApiOkResponse({ type: PaymentsListResponse })
  @ApiErrors({ 400: ['invalid_request'] })
  async list(@CheckoutCaller() caller: CheckoutPrincipal, @Query() query: Record<string, unknown>) {
    const { limit, offset } = readPaymentsQuery(query);
    const page = await this.orders.list(caller.accountId, caller.environment, limit, offset);
    return { total: page.total, limit, offset, data: page.data };
  }

  @Post(bothEnvironments('payment/history'))
  @HttpCode(200)
  @ApiOperation({
    summary: 'Get Payments History',
    description: 'Orders created from start_date to end_date, both inclusive, newest first; at most 10,000.',
  })
  @ApiBody({ type: PaymentsHistoryRequest })
  @ApiOkResponse({ type: PaymentsHistoryResponse })
  @ApiErrors({ 400: ['invalid_request'], 413: [], 415: [], 422: ['history_too_large'] })
  async history(@CheckoutCaller() caller: CheckoutPrincipal, @Body() body: unknown) {
    const { start, end } = readHistoryBody(body);
    try {
      return await this.orders.history(caller.accountId, caller.environment, start, end);
    } catch (error) {
      if (error instanceof HistoryTooLargeError) throw new ApiError(422, 'history_too_large', error.message);
      throw error;
    }
  }

  @Get(bothEnvironments('payment/status'))
  @ApiOperation({ summary: 'Get Payments Status' })
  @ApiQuery({ name: 'payment_id', required: true, description: 'The order id', schema: { type: 'string' } })
  @ApiOkResponse({ type: PaymentStatusResponse })
  @ApiErrors({ 400: ['invalid_request'], 404: ['not_found'] })
  async status(@CheckoutCaller() caller: CheckoutPrincipal, @Query() query: Record<string, unknown>) {
    const orderId = readPaymentId(query);
    const order =
      orderId === null ? null : await this.orders.find(caller.accountId, caller.environment, orderId);
    // Another account's or environment's order is indistinguishable from no order.
    if (!order) throw new ApiError(404, 'not_found', 'no such payment');
    return { status: order.status, data: order };
  }
}
