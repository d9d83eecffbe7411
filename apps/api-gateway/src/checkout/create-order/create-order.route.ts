import { applyDecorators, Body, Headers, HttpCode, Inject, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import {
  CheckoutPageTokens,
  CreateOrderCommand,
  OrderIds,
  OrderQueries,
  orderUrl,
  storedCreateAnswer,
} from '@payouts/checkout';
import type { AppConfig } from '@payouts/config';
import type { OrderMethod } from '@payouts/domain';
import { IdempotentRequests } from '@payouts/idempotency';
import type { IdempotencyHold } from '@payouts/idempotency';
import { APP_CONFIG } from '@payouts/platform';
import type { FastifyReply } from 'fastify';
import {
  ApiErrors,
  IDEMPOTENCY_409,
  IDEMPOTENCY_422,
  IDEMPOTENCY_503,
  REPLAYED_HEADER,
} from '../../openapi/decorators';
import { CreateOrderRequest, CreateOrderResponse } from '../checkout.schemas';
import { CheckoutCaller } from '../checkout-principal';
import type { CheckoutPrincipal } from '../checkout-principal';
import { bothEnvironments, CheckoutRoutes } from '../checkout-routes';
import { readCreateOrderBody } from './create-order-body';

/** The OpenAPI description every create path shares. */
const CreateOrderDocs = (method: string) =>
  applyDecorators(
    ApiOperation({
      summary: `Create Payment Order: ${method}`,
      description:
        'Send the payer to `order_url`. `Idempotency-Key` is optional; when sent, a retry with it replays the answer.',
    }),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: 'Optional: 1 to 255 characters, unique per attempt',
    }),
    ApiBody({ type: CreateOrderRequest }),
    ApiOkResponse({ description: 'The order, pending', type: CreateOrderResponse, headers: REPLAYED_HEADER }),
    ApiErrors({
      400: ['invalid_request', 'invalid_amount', 'unsupported_currency'],
      403: ['wrong_environment', 'wrong_credential_kind', 'method_not_available'],
      409: IDEMPOTENCY_409,
      413: [],
      415: [],
      422: IDEMPOTENCY_422,
      503: IDEMPOTENCY_503,
    }),
  );

/**
 * The five create paths, one method of payment each (docs/design.md#paths-and-methods): the same body and
 * the same answer, `{order_url, order_id, amount}`.
 */
@CheckoutRoutes()
export class CreateOrderRoute {
  constructor(
    private readonly commands: CommandBus,
    private readonly orderIds: OrderIds,
    private readonly orders: OrderQueries,
    private readonly pages: CheckoutPageTokens,
    private readonly idempotent: IdempotentRequests,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(bothEnvironments('card'))
  @HttpCode(200)
  @CreateOrderDocs('Card')
  card(
    @CheckoutCaller() caller: CheckoutPrincipal,
    @Body() body: unknown,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.create('card', '/card', caller, body, key, reply);
  }

  @Post(bothEnvironments('payment/mobilewallet'))
  @HttpCode(200)
  @CreateOrderDocs('Mobile wallet')
  mobileWallet(
    @CheckoutCaller() caller: CheckoutPrincipal,
    @Body() body: unknown,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.create('mobile_wallet', '/payment/mobilewallet', caller, body, key, reply);
  }

  @Post(bothEnvironments('payment/cash'))
  @HttpCode(200)
  @CreateOrderDocs('Cash-transfer app')
  cash(
    @CheckoutCaller() caller: CheckoutPrincipal,
    @Body() body: unknown,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.create('cash_app', '/payment/cash', caller, body, key, reply);
  }

  @Post(bothEnvironments('payment/onlinewallet'))
  @HttpCode(200)
  @CreateOrderDocs('Online wallet')
  onlineWallet(
    @CheckoutCaller() caller: CheckoutPrincipal,
    @Body() body: unknown,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.create('online_wallet', '/payment/onlinewallet', caller, body, key, reply);
  }

  @Post(bothEnvironments('payment/order'))
  @HttpCode(200)
  @CreateOrderDocs('Peer-to-peer app')
  peerToPeer(
    @CheckoutCaller() caller: CheckoutPrincipal,
    @Body() body: unknown,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.create('p2p_app', '/payment/order', caller, body, key, reply);
  }

  private async create(
    method: OrderMethod,
    path: string,
    caller: CheckoutPrincipal,
    rawBody: unknown,
    key: string | undefined,
    reply: FastifyReply,
  ): Promise<unknown> {
    if (key === undefined) {
      const created = await this.execute(method, caller, rawBody, await this.orderIds.next(), undefined);
      return this.answer(created);
    }
    const result = await this.idempotent.handle(
      {
        owner: caller,
        path,
        key,
        body: rawBody,
        resourceId: String(await this.orderIds.next()),
      },
      async (hold) => {
        const orderId = Number(hold.resourceId);
        if (hold.retryOfUnresolved) {
          // The earlier attempt may have written the order: answer it rather than create a second.
          const existing = await this.orders.find(caller.accountId, caller.environment, orderId);
          if (existing) {
            const answer = storedCreateAnswer({ orderId, amount: existing.Amount.toFixed(2) });
            return { status: 200, body: this.answer(answer), stored: answer, committed: false };
          }
        }
        const created = await this.execute(method, caller, rawBody, orderId, hold);
        return {
          status: 200,
          body: this.answer(created),
          stored: storedCreateAnswer(created),
          committed: true,
        };
      },
      { replayed: (stored) => this.answer(stored as { order_id: number; amount: string }) },
    );
    void reply.status(result.status);
    if (result.replayed) void reply.header('Idempotent-Replayed', 'true');
    return result.body;
  }

  private execute(
    method: OrderMethod,
    caller: CheckoutPrincipal,
    rawBody: unknown,
    orderId: number,
    hold: IdempotencyHold | undefined,
  ) {
    const body = readCreateOrderBody(rawBody, caller.environment);
    return this.commands.execute(
      new CreateOrderCommand({
        orderId,
        accountId: caller.accountId,
        environment: caller.environment,
        region: caller.credential.account.region,
        method,
        amount: body.amount,
        currency: body.currency,
        customer: body.customer,
        product: body.product,
        redirectUrl: body.redirectUrl,
        hookUrl: caller.credential.account.checkoutWebhookUrl,
        credentialId: caller.credentialId,
        ...(hold ? { hold } : {}),
      }),
    );
  }

  /** `{order_url, order_id, amount}`: the url derived from the order id, on a replay too. */
  private answer(created: { orderId: number; amount: string } | { order_id: number; amount: string }) {
    const orderId = 'orderId' in created ? created.orderId : created.order_id;
    const url = orderUrl(this.config.publicBaseUrl, this.pages.tokenOf(orderId).token);
    return { order_url: url, order_id: orderId, amount: created.amount };
  }
}
