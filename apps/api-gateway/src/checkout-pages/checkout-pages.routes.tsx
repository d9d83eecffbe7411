import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { AccountsRepository } from '@payouts/accounts';
import {
  hashPageToken,
  isWellFormedPageToken,
  OrderQueries,
  PageOrder,
  PaymentInProgressError,
  PayOrderCommand,
  PayOrderResult,
} from '@payouts/checkout';
import type { Clock } from '@payouts/clock';
import type { Environment } from '@payouts/domain';
import { DomainError } from '@payouts/domain';
import { CLOCK } from '@payouts/platform';
import { allowFormAnswersTo, formFields, formTokenIsValid, sendPage } from '@payouts/web';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNTS } from '../gateway.tokens';
import { CheckoutErrorPage, onOrderPage, PAYMENT_NOT_FOUND, sendErrorPage } from './checkout-page.filter';
import { PageContext, PaidPage, PaymentForm, PaymentPage } from './checkout-page-views';
import { readCardForm, readWalletForm } from './payment-form';

type PageRequest = FastifyRequest<{ Params: { token: string } }>;

/** The order's page and what it shows, or the page that says why there is none. */
type Found =
  { order: PageOrder; context: PageContext } | { refusal: CheckoutErrorPage; environment: Environment };

/** The page's own address: its form posts there, and its CSRF cookie is sent there only. */
const pagePath = (token: string) => `/checkout/${token}`;

/**
 * The hosted checkout page (docs/design.md#hosted-page), in the checkout page scope
 * (CheckoutPagesModule): `order_url` opens the form of the order's method; its POST is one attempt
 * (PayOrderCommand). Declined: the form again with why. Paid: 303 to `redirect_url` with
 * `order_id` added, or to this page, which then says it is paid. Expired: 410 from `expires_at`
 * on the order's clock. Unknown token: 404. Every answer is a page, never JSON (checkoutPageError
 * for what fails).
 */
@Injectable()
export class CheckoutPageRoutes {
  constructor(
    private readonly orders: OrderQueries,
    private readonly commands: CommandBus,
    @Inject(ACCOUNTS) private readonly accounts: AccountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  register(scope: FastifyInstance): void {
    scope.get<{ Params: { token: string } }>('/checkout/:token', (request, reply) =>
      this.show(request, reply),
    );
    scope.post<{ Params: { token: string } }>('/checkout/:token', (request, reply) =>
      this.pay(request, reply),
    );
  }

  /**
   * The order of a page still to be paid; null once answered: no such order (404), expired (410),
   * or paid, which the page then says (a paid order is never charged again).
   */
  private async payableOrder(token: string, reply: FastifyReply) {
    const found = await this.pageOrder(token);
    if ('refusal' in found) {
      void sendErrorPage(reply, found.refusal, found.environment);
      return null;
    }
    if (found.order.view.status === 'SUCCESS') {
      void sendPage(reply, 200, <PaidPage context={found.context} />);
      return null;
    }
    return found;
  }

  private async show(request: PageRequest, reply: FastifyReply) {
    const { token } = request.params;
    const found = await this.payableOrder(token, reply);
    if (!found) return reply;
    const { order, context } = found;
    return this.paymentForm(reply, token, order, context, 200, { decline: order.lastDecline });
  }

  private async pay(request: PageRequest, reply: FastifyReply) {
    const { token } = request.params;
    const found = await this.payableOrder(token, reply);
    if (!found) return reply;
    const { order, context } = found;
    onOrderPage(request, context.environment);
    if (!formTokenIsValid(request, reply)) return reply;
    // Text fields only: a JSON body's numbers or objects fail the form's checks, not a string method.
    const fields = formFields(request.body);
    const read =
      order.view.method === 'card'
        ? readCardForm(fields, this.clock.now(context.environment))
        : readWalletForm(fields);
    // What the payer may see again (never the card number or its security code).
    const values = {
      expiry: fields.expiry ?? '',
      name_on_card: fields.name_on_card ?? '',
      wallet_account: fields.wallet_account ?? '',
    };
    if (read.errors)
      return this.paymentForm(reply, token, order, context, 400, { errors: read.errors, values });
    let result: PayOrderResult;
    try {
      result = await this.commands.execute(new PayOrderCommand(order.view.id, read.instrument));
    } catch (error) {
      if (error instanceof DomainError && error.code === 'order_not_payable') {
        const again = await this.pageOrder(token);
        if (!('refusal' in again) && again.order.view.status === 'SUCCESS') {
          return sendPage(reply, 200, <PaidPage context={again.context} />);
        }
        return sendErrorPage(reply, PAYMENT_EXPIRED, context.environment);
      }
      // Another attempt on this order (another tab, another process) is still with the acquirer.
      if (error instanceof PaymentInProgressError) {
        return sendErrorPage(reply, PAYMENT_IN_PROGRESS, context.environment);
      }
      throw error;
    }
    if (!result.paid) {
      // 402: the attempt was made and refused; the form is there to try again.
      return this.paymentForm(reply, token, order, context, 402, { decline: result.reason, values });
    }
    const location = order.redirectUrl ? withOrderId(order.redirectUrl, order.view.id) : pagePath(token);
    return reply.redirect(location, 303);
  }

  /**
   * The payment form, its CSRF token made from the secret in the page's own cookie (set now if the
   * browser brought none). Its answer may send the browser on to the merchant's `redirect_url`, so
   * CSP form-action names that origin too.
   */
  private paymentForm(
    reply: FastifyReply,
    token: string,
    order: PageOrder,
    context: PageContext,
    status: number,
    form: Omit<PaymentForm, 'action' | 'csrfToken'>,
  ) {
    allowFormAnswersTo(reply, order.redirectUrl ? new URL(order.redirectUrl).origin : null);
    const csrfToken = reply.generateCsrf({ path: pagePath(token) });
    return sendPage(
      reply,
      status,
      <PaymentPage context={context} form={{ ...form, action: pagePath(token), csrfToken }} />,
    );
  }

  /** The order and what its page shows, or the page that says why there is none. */
  private async pageOrder(token: string): Promise<Found> {
    const order = isWellFormedPageToken(token)
      ? await this.orders.byPageTokenHash(hashPageToken(token))
      : null;
    if (!order) return { refusal: PAYMENT_NOT_FOUND, environment: 'production' };
    const past = Date.parse(order.view.expires_at) <= this.clock.now(order.environment).getTime();
    if (order.view.status === 'EXPIRED' || (order.view.status === 'PENDING' && past)) {
      return { refusal: PAYMENT_EXPIRED, environment: order.environment };
    }
    const merchantName = (await this.accounts.accountName(order.accountId)) ?? 'the merchant';
    return {
      order,
      context: { environment: order.environment, merchantName, order: order.view, amount: order.amount },
    };
  }
}

const PAYMENT_EXPIRED: CheckoutErrorPage = {
  status: 410,
  headers: {},
  title: 'Payment expired',
  message: 'This payment has expired. Ask the shop for a new payment link.',
};

const PAYMENT_IN_PROGRESS: CheckoutErrorPage = {
  status: 409,
  headers: {},
  title: 'Payment in progress',
  message:
    'A payment for this order is being processed. Open the payment link again in a moment to see its outcome.',
};

function withOrderId(redirectUrl: string, orderId: number): string {
  const url = new URL(redirectUrl);
  url.searchParams.set('order_id', String(orderId));
  return url.href;
}
